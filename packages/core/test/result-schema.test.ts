import { describe, expect, expectTypeOf, it } from "vitest";
import { toPublicQuestion } from "../src/broker/public-question.ts";
import { type AskUserResult, resultOf, TERMINAL_STATUSES } from "../src/model/types.ts";
import { askUserResultSchema } from "../src/schema/result-schema.ts";
import { sampleRecord } from "../src/testing/records.ts";

describe("askUserResultSchema", () => {
  it("accepts the result of a record in every final status", () => {
    for (const status of TERMINAL_STATUSES) {
      const record = sampleRecord({
        status,
        ...(status === "answered" ? { answers: { deploy_target: ["x"] } } : {}),
      });
      const result = resultOf(record);
      expect(askUserResultSchema.safeParse(result).success, status).toBe(true);
    }
  });

  it.each([
    [{ status: "no_answer", reason: "bored" }],
    [{ status: "no_answer" }],
    [{ status: "answered", answers: { deploy_target: ["Production"] } }],
    [{ status: "answered", answers: { answers: { deploy_target: "Production" } } }],
    [{ status: "answered", answers: { answers: {} }, reason: "expired" }],
    [{ status: "pending" }],
  ])("refuses %j", (result) => {
    expect(askUserResultSchema.safeParse(result).success).toBe(false);
  });

  it("is where AskUserResult comes from: SPEC §3's shape exactly", () => {
    expectTypeOf<AskUserResult>().toEqualTypeOf<
      | { status: "answered"; answers: { answers: Record<string, string[]> } }
      | { status: "no_answer"; reason: "expired" | "skipped" | "cancelled" | "undeliverable" }
    >();
  });
});

describe("toPublicQuestion", () => {
  it("shows a record without its action tokens, and with its result once it has ended", () => {
    const pending = sampleRecord({ tokens: ["secret-token-123"] });
    const shown = toPublicQuestion(pending);
    expect(JSON.stringify(shown)).not.toContain("secret-token-123");
    expect(shown).not.toHaveProperty("result");
    expect(shown).toEqual(
      expect.objectContaining({ id: pending.id, status: "pending", prompt: pending.prompt }),
    );
    expect(pending.tokens).toEqual(["secret-token-123"]);

    const skipped = toPublicQuestion({ ...pending, status: "skipped" });
    expect(skipped.result).toEqual({ status: "no_answer", reason: "skipped" });
    const answered = toPublicQuestion({
      ...pending,
      status: "answered",
      answers: { deploy_target: ["Production"] },
    });
    expect(answered.result).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"] } },
    });
  });
});
