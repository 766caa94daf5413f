import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { type AskUserBroker, createAskUser } from "../src/broker/broker.ts";
import type { Answers, QuestionRecord } from "../src/model/types.ts";
import type { RefreshRequest } from "../src/ports/channel.ts";
import { encodeAction } from "../src/prompt/codec.ts";
import { createMemoryStore } from "../src/stores/memory.ts";
import { createFakeClock } from "../src/testing/fake-clock.ts";
import { recordingChannel, recordingLogger, severalInput, T0 } from "./helpers.ts";

const room = { channel: "chat", conversation: "room-1" };
const alice = { channel: "chat", userId: "u-alice", displayName: "@alice" };
const web = { channel: "web", userId: "operator" };
const brokers: AskUserBroker[] = [];
afterEach(async () => {
  for (const broker of brokers.splice(0)) await broker.close();
});

function setup() {
  const channel = recordingChannel();
  const refreshed: RefreshRequest[] = [];
  channel.refresh = async (request) => {
    refreshed.push(structuredClone(request));
  };
  const clock = createFakeClock(T0);
  const broker = createAskUser({
    store: createMemoryStore(),
    channels: [channel],
    clock,
    logger: recordingLogger(),
  });
  brokers.push(broker);
  return { broker, refreshed, clock };
}

async function ask(broker: AskUserBroker): Promise<QuestionRecord> {
  return broker.create(severalInput, { target: room, creator: alice });
}

describe("stage(): one shared draft for every surface", () => {
  it("puts one question's values into the draft, canonical, beside what a chat control staged, and never answers", async () => {
    const { broker } = setup();
    const record = await ask(broker);
    // Alice taps Prod in the chat form; the web panel stages the regions.
    await broker.handleAction({
      ...room,
      userId: "u-alice",
      data: encodeAction(record.tokens[0] ?? "", { kind: "pick", index: 1 }),
    });
    const staged = await broker.stage(record.id, { question: "regions", values: ["asia", "EU"] }, web);
    expect(staged.ok && staged.record).toMatchObject({
      status: "pending",
      draft: { env: ["Prod"], regions: ["EU", "Asia"] },
    });
    // Every question has a value now, and it is still a draft: Send answers it.
    const stored = await broker.get(record.id);
    expect(stored).toMatchObject({ status: "pending", draft: { env: ["Prod"], regions: ["EU", "Asia"] } });
    expect(stored?.answers).toBeUndefined();
    const sent = await broker.handleAction({
      ...room,
      userId: "u-alice",
      data: encodeAction(record.tokens[0] ?? "", { kind: "submit" }),
    });
    expect(sent).toMatchObject({ kind: "answered" });
    expect((await broker.get(record.id))?.answers).toEqual({ env: ["Prod"], regions: ["EU", "Asia"] });
  });

  it("replaces that question's values, takes one own answer, and clears it with an empty list", async () => {
    const { broker } = setup();
    const record = await ask(broker);
    await broker.stage(record.id, { question: "regions", values: ["EU", "US"] }, web);
    await broker.stage(record.id, { question: "env", values: "staging" }, web);
    const own = await broker.stage(record.id, { question: "regions", values: ["other: Mars", "US"] }, web);
    expect(own.ok && own.record.draft).toEqual({ env: ["Staging"], regions: ["US", "Mars"] });
    await broker.stage(record.id, { question: "regions", values: [] }, web);
    expect((await broker.get(record.id))?.draft).toEqual({ env: ["Staging"] });
    await broker.stage(record.id, { question: "env", values: [" "] }, web);
    expect((await broker.get(record.id))?.draft).toBeUndefined();
  });

  it("refuses bad values with issues at their paths and leaves the draft as it was", async () => {
    const { broker } = setup();
    const record = await ask(broker);
    await broker.stage(record.id, { question: "env", values: ["Prod"] }, web);
    const cases: Array<[unknown, string, RegExp]> = [
      [{ question: "envv", values: ["Prod"] }, "question", /the questions are: env, regions/],
      [{ question: "env", values: ["Prodd"] }, "values[0]", /did you mean "Prod"/],
      [{ question: "env", values: ["Staging", "Prod"] }, "values", /one answer, not several/],
      [{ question: "regions", values: ["Mars", "Venus"] }, "values", /at most one answer of your own/],
      [{ question: "regions", values: ["EU", 7] }, "values[1]", /as a string, not/],
      [{ question: "regions", values: { EU: true } }, "values", /array of strings/],
    ];
    for (const [request, path, message] of cases) {
      const outcome = await broker.stage(record.id, request as { question: string; values: unknown }, web);
      expect(outcome).toMatchObject({ ok: false, reason: "invalid" });
      const issue = !outcome.ok ? outcome.issues?.find((i) => i.path === path) : undefined;
      expect(issue?.message, JSON.stringify(request)).toMatch(message);
    }
    expect((await broker.get(record.id))?.draft).toEqual({ env: ["Prod"] });
  });

  it("refuses a chat user who may not answer, and takes the creator in the question's conversation", async () => {
    const { broker } = setup();
    const record = await ask(broker);
    const bob = { channel: "chat", userId: "u-bob", conversation: "room-1" };
    const refused = await broker.stage(record.id, { question: "env", values: ["Prod"] }, bob);
    expect(refused).toMatchObject({
      ok: false,
      reason: "not_allowed",
      message: expect.stringContaining("@alice"),
    });
    expect((await broker.get(record.id))?.draft).toBeUndefined();
    const allowed = await broker.stage(
      record.id,
      { question: "env", values: ["Prod"] },
      { ...alice, conversation: "room-1" },
    );
    expect(allowed.ok && allowed.record.draft).toEqual({ env: ["Prod"] });
  });

  it("refuses a question that ended, with its reason, and expires one past its deadline on the spot", async () => {
    const { broker, clock } = setup();
    const answered = await ask(broker);
    await broker.answer(answered.id, { env: "Prod", regions: ["EU"] }, alice);
    const late = await broker.stage(answered.id, { question: "env", values: ["Staging"] }, web);
    expect(late).toMatchObject({ ok: false, reason: "answered", message: expect.stringContaining("@alice") });
    expect((await broker.get(answered.id))?.answers).toEqual({ env: ["Prod"], regions: ["EU"] });

    const overdue = await ask(broker);
    clock.jump(overdue.expiresAt - T0); // suspended past the deadline: no timer has fired yet
    const expired = await broker.stage(overdue.id, { question: "env", values: ["Staging"] }, web);
    expect(expired).toMatchObject({ ok: false, reason: "expired" });
    expect((await broker.get(overdue.id))?.status).toBe("expired");

    expect(await broker.stage("no-such-id", { question: "env", values: ["Prod"] }, web)).toMatchObject({
      ok: false,
      reason: "unknown",
    });
  });

  it("re-renders the chat prompt with the staged draft, and not when nothing changed", async () => {
    const { broker, refreshed } = setup();
    const record = await ask(broker);
    await broker.stage(record.id, { question: "regions", values: ["US"] }, web);
    await broker.idle();
    expect(refreshed.map((r) => r.record.draft)).toEqual([{ regions: ["US"] }]);
    await broker.stage(record.id, { question: "regions", values: ["us"] }, web);
    await broker.idle();
    expect(refreshed).toHaveLength(1);
  });

  it("keeps both of two surfaces staging different questions at the same moment", async () => {
    const { broker } = setup();
    const record = await ask(broker);
    await Promise.all([
      broker.stage(record.id, { question: "env", values: ["Prod"] }, web),
      broker.stage(
        record.id,
        { question: "regions", values: ["Asia"] },
        { ...alice, conversation: "room-1" },
      ),
    ]);
    expect((await broker.get(record.id))?.draft).toEqual({ env: ["Prod"], regions: ["Asia"] });
  });

  it("ends as the last staging of each question said, whatever the order (property)", async () => {
    const labels = { env: ["Staging", "Prod"], regions: ["EU", "US", "Asia"] };
    const step = fc.oneof(
      fc.record({ question: fc.constant("env" as const), picked: fc.subarray([0, 1], { maxLength: 1 }) }),
      fc.record({ question: fc.constant("regions" as const), picked: fc.subarray([0, 1, 2]) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 8 }), async (steps) => {
        const { broker } = setup();
        const record = await ask(broker);
        const expected: Answers = {};
        for (const { question, picked } of steps) {
          // Given in any order and case: stored as labels in option order.
          const values = [...picked].reverse().map((i) => labels[question][i]?.toLowerCase() ?? "");
          const outcome = await broker.stage(record.id, { question, values }, web);
          expect(outcome.ok).toBe(true);
          if (picked.length === 0) delete expected[question];
          else expected[question] = picked.map((i) => labels[question][i] ?? "");
        }
        const stored = await broker.get(record.id);
        expect(stored?.status).toBe("pending");
        expect(stored?.draft ?? {}).toEqual(expected);
        await broker.close();
      }),
      { numRuns: 40 },
    );
  });
});
