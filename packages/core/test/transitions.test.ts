import { describe, expect, it } from "vitest";
import { applyAnswers, keepBefore } from "../src/broker/transitions.ts";
import { sampleRecord } from "../src/testing/records.ts";

describe("keepBefore, the record as it was before a change", () => {
  it("is not changed by a change function that changes the record it is given, deep inside too", () => {
    const record = sampleRecord({
      draft: { deploy_target: ["Staging"] },
      deliveries: [{ channel: "telegram", conversation: "1", messageId: "10", kind: "prompt" }],
      claim: { by: "a", until: 5, boot: "b" },
    });
    const before = keepBefore(record);
    const stored = structuredClone(record);
    expect(before).toEqual(stored);

    record.draft?.deploy_target?.push("Production");
    const delivery = record.deliveries[0];
    if (delivery) delivery.finalizedAt = 7;
    record.deliveries.push({ channel: "slack", conversation: "C", messageId: "1.2", kind: "notice" });
    if (record.claim) record.claim.until = 99;
    applyAnswers(record, { deploy_target: ["Production"] }, { channel: "http", userId: "operator" }, 9);

    expect(before).toEqual(stored);
    expect(record.status).toBe("answered");
  });

  it("shares only what no transition changes: the prompt, the tokens and the answerer policy", () => {
    const record = sampleRecord();
    const before = keepBefore(record);
    expect(before.prompt).toBe(record.prompt);
    expect(before.tokens).toBe(record.tokens);
    expect(before.answerers).toBe(record.answerers);
    expect(before.deliveries).not.toBe(record.deliveries);
  });
});
