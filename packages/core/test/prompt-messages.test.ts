import { describe, expect, it } from "vitest";
import { createPromptMessages } from "../src/prompt/messages.ts";
import { sampleRecord } from "../src/testing/records.ts";

/** An edit that records what it sent, after `delayMs`. */
function editor(sent: string[], delayMs = 0) {
  return (record: { version: number; status: string }) => ({
    sameness: `v${record.version}`,
    send: async () => {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      sent.push(`v${record.version}`);
    },
  });
}

describe("createPromptMessages", () => {
  it("edits one message at a time, always the newest record, and never the same twice", async () => {
    const messages = createPromptMessages();
    const record = sampleRecord();
    messages.sent("m1", record, "v1");
    const sent: string[] = [];
    await messages.show("m1", record, editor(sent)); // shows v1 already
    const v3 = { ...record, version: 3 };
    const v2 = { ...record, version: 2 };
    await Promise.all([messages.show("m1", v3, editor(sent, 5)), messages.show("m1", v2, editor(sent))]);
    expect(sent).toEqual(["v3"]); // v2 came late: the newest seen (v3) is shown, once
  });

  it("never shows a form after the question ended, and runs the summary after the edit in flight", async () => {
    const messages = createPromptMessages();
    const record = sampleRecord();
    const order: string[] = [];
    const slow = messages.show("m1", { ...record, version: 2 }, editor(order, 20));
    await new Promise((resolve) => setTimeout(resolve, 5)); // the edit is on its way
    const summary = messages.end("m1", async () => {
      order.push("summary");
    });
    await Promise.all([slow, summary]);
    await messages.show("m1", { ...record, version: 4 }, editor(order));
    expect(order).toEqual(["v2", "summary"]);
    expect(messages.ended("m1")).toBe(true);
    await messages.show("m2", { ...record, status: "answered" }, editor(order));
    expect(order).toEqual(["v2", "summary"]); // not pending: no form
  });

  it("waits for taps in flight, and a tap that showed the summary stops later form edits", async () => {
    const messages = createPromptMessages();
    const record = sampleRecord();
    const sent: string[] = [];
    const done = messages.tapping("m1");
    const showing = messages.show("m1", { ...record, version: 2 }, editor(sent));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(sent).toEqual([]);
    done(true);
    await showing;
    expect(sent).toEqual([]);
    expect(await messages.tapsSettled("m1")).toBe(true);
    expect(await messages.tapsSettled("m2")).toBe(false);
  });

  it("remembers the question each message shows, bounded to the most recent messages", () => {
    const messages = createPromptMessages(2);
    messages.view("a", 1);
    messages.view("b", 2);
    messages.view("c", 0);
    expect([messages.view("a"), messages.view("b"), messages.view("c")]).toEqual([undefined, 2, 0]);
  });
});
