import { afterEach, describe, expect, it } from "vitest";
import { type AskUserBroker, type AskUserOptions, createAskUser } from "../src/broker/broker.ts";
import type { AskUserEvent, AskUserResult } from "../src/model/types.ts";
import { encodeAction } from "../src/prompt/codec.ts";
import { createMemoryStore } from "../src/stores/memory.ts";
import { createFakeClock } from "../src/testing/fake-clock.ts";
import { deployInput, recordingChannel, recordingLogger, T0 } from "./helpers.ts";

const target = { channel: "chat", conversation: "room-1" };
const alice = { channel: "chat", userId: "u-alice", displayName: "@alice" };

function setup(overrides: Partial<AskUserOptions> = {}) {
  const clock = createFakeClock(T0);
  const store = createMemoryStore();
  const channel = recordingChannel();
  const logger = recordingLogger();
  const broker = createAskUser({ store, channels: [channel], clock, logger, ...overrides });
  brokers.push(broker);
  return { clock, store, channel, broker, logger };
}
const brokers: AskUserBroker[] = [];
afterEach(async () => {
  for (const broker of brokers.splice(0)) await broker.close();
});

/** Starts an ask and waits until the prompt is delivered; returns the pending result and the record. */
async function started(env: ReturnType<typeof setup>, input: unknown = deployInput, extra = {}) {
  let result: AskUserResult | undefined;
  const promise = env.broker.ask(input, { target, creator: alice, ...extra }).then((r) => {
    result = r;
    return r;
  });
  await env.clock.advance(0);
  const [record] = await env.broker.list({ status: "pending" });
  if (!record) throw new Error("no pending question");
  return { promise, record, result: () => result };
}

describe("the question lifecycle", () => {
  it("delivers the prompt, takes a text answer, confirms it, edits the message and returns the result", async () => {
    const env = setup();
    const { promise, record } = await started(env);
    expect(env.channel.delivered[0]?.text).toContain("Deploy: Where should I deploy?");
    expect(env.channel.delivered[0]?.buttons).toBe(true);
    const outcome = await env.broker.handleReply({
      ...target,
      userId: "u-alice",
      displayName: "@alice",
      text: "1",
    });
    expect(outcome.kind).toBe("answered");
    expect(await promise).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Staging (Recommended)"] } },
    });
    expect(env.channel.notices.map((n) => n.text)).toEqual(["Recorded: Staging (Recommended)"]);
    await env.broker.idle();
    const messageId = (await env.broker.get(record.id))?.deliveries[0]?.messageId ?? "";
    expect(env.channel.messages.get(messageId)).toBe("✅ Deploy: Staging (Recommended) — @alice");
    const stored = await env.broker.get(record.id);
    expect(stored).toMatchObject({ status: "answered", resolvedBy: { channel: "chat", userId: "u-alice" } });
    expect(stored?.deliveries[0]?.finalizedAt).toBe(T0);
  });

  it("expires after the default 900 s, not a second earlier, and edits the message to ⌛", async () => {
    const env = setup();
    const { promise, record, result } = await started(env);
    expect(record.expiresAt).toBe(T0 + 900_000);
    await env.clock.advance(899_999);
    expect(result()).toBeUndefined();
    await env.clock.advance(1);
    expect(await promise).toEqual({ status: "no_answer", reason: "expired" });
    await env.broker.idle();
    expect(env.channel.finalized.map((f) => f.summary)).toEqual(["⌛ Deploy — expired"]);
  });

  it.each([
    [5, 30_000],
    [7200, 3_600_000],
    [45, 45_000],
  ])("clamps timeoutSeconds %i to a %i ms deadline", async (timeoutSeconds, ms) => {
    const env = setup();
    const { promise, record } = await started(env, { ...deployInput, timeoutSeconds });
    expect(record.expiresAt - record.createdAt).toBe(ms);
    await env.clock.advance(ms);
    expect(await promise).toEqual({ status: "no_answer", reason: "expired" });
  });

  it("cancels the question when the agent run is aborted", async () => {
    const env = setup();
    const abort = new AbortController();
    const { promise, record } = await started(env, deployInput, { signal: abort.signal });
    abort.abort();
    expect(await promise).toEqual({ status: "no_answer", reason: "cancelled" });
    expect((await env.broker.get(record.id))?.status).toBe("cancelled");
    await env.broker.idle();
    expect(env.channel.finalized.map((f) => f.summary)).toEqual(["✖ Deploy — cancelled"]);
  });

  it("returns cancelled at once for a run that was already aborted, delivering nothing", async () => {
    const env = setup();
    const result = await env.broker.ask(deployInput, { target, signal: AbortSignal.abort() });
    expect(result).toEqual({ status: "no_answer", reason: "cancelled" });
    expect(env.channel.delivered).toEqual([]);
  });

  it("ends undeliverable at once when the channel fails, keeping the platform's error", async () => {
    const env = setup();
    env.channel.failDelivery = new Error("400: Bad Request: chat not found");
    const result = await env.broker.ask(deployInput, { target });
    expect(result).toEqual({ status: "no_answer", reason: "undeliverable" });
    const [record] = await env.broker.list();
    expect(record?.error).toBe("Error: 400: Bad Request: chat not found");
    expect(env.clock.now()).toBe(T0);
    expect(env.logger.lines).toEqual([
      {
        level: "warn",
        message: "undeliverable",
        details: expect.objectContaining({ questionId: record?.id, channel: "chat" }),
      },
    ]);
  });

  it("ends undeliverable when the target names a channel that is not running", async () => {
    const env = setup();
    const result = await env.broker.ask(deployInput, { target: { channel: "pager", conversation: "x" } });
    expect(result).toEqual({ status: "no_answer", reason: "undeliverable" });
    expect((await env.broker.list())[0]?.error).toContain('No channel named "pager"');
  });

  it("lets exactly one of 100 concurrent answers win and tells the 99 others who did", async () => {
    const env = setup({ answerers: "conversation" });
    const { promise, record } = await started(env);
    const token = record.tokens[0] ?? "";
    const outcomes = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        env.broker.handleAction({
          ...target,
          userId: `u${i}`,
          displayName: `@user${i}`,
          data: encodeAction(token, { kind: "option", index: i % 2 }),
        }),
      ),
    );
    const winners = outcomes.filter((o) => o.kind === "answered");
    const losers = outcomes.filter((o) => o.kind === "refused");
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(99);
    const winner = (await env.broker.get(record.id))?.resolvedBy?.displayName ?? "";
    for (const loser of losers) {
      expect(loser).toMatchObject({
        reason: "answered",
        text: `This question was already answered by ${winner}.`,
      });
    }
    const result = await promise;
    expect(result.status).toBe("answered");
  });

  it("expires a question at once when the process was suspended past its deadline", async () => {
    const env = setup();
    const { promise, record } = await started(env);
    env.clock.jump(901_000); // no timer fired: the process slept
    const outcome = await env.broker.handleAction({
      ...target,
      userId: "u-alice",
      data: encodeAction(record.tokens[0] ?? "", { kind: "option", index: 1 }),
    });
    expect(outcome).toMatchObject({
      kind: "refused",
      reason: "expired",
      text: "This question expired at 14:20 UTC.",
    });
    expect(await promise).toEqual({ status: "no_answer", reason: "expired" });
  });

  it("reports requested, updated and resolved events", async () => {
    const env = setup();
    const events: AskUserEvent[] = [];
    env.broker.subscribe((event) => events.push(event));
    const { promise } = await started(env);
    await env.broker.handleReply({ ...target, userId: "u-alice", text: "Production" });
    await promise;
    await env.broker.idle();
    await env.clock.advance(0);
    expect(events.map((e) => `${e.type}:${e.record.status}`)).toEqual([
      "question.requested:pending",
      "question.updated:pending", // the delivery reference was stored
      "question.resolved:answered",
      // the confirmation ("Recorded: …") is remembered as the question's, and the prompt was edited to
      // the summary (in either order: both happen after the answer)
      "question.updated:answered",
      "question.updated:answered",
    ]);
  });

  it("returns an answer that came while the agent was away", async () => {
    const env = setup();
    const record = await env.broker.create(deployInput, { target, creator: alice });
    await env.broker.handleReply({ ...target, userId: "u-alice", text: "production" });
    expect(await env.broker.wait(record.id)).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"] } },
    });
  });

  it("rejects waiting callers on close but keeps the question pending", async () => {
    const env = setup();
    const { promise, record } = await started(env);
    await env.broker.close();
    await expect(promise).rejects.toMatchObject({ code: "closed" });
    expect((await env.store.get(record.id))?.status).toBe("pending");
  });

  it("refuses bad input with every problem and stores nothing", async () => {
    const env = setup();
    await expect(env.broker.ask({ questions: [{ id: "X" }] }, { target })).rejects.toMatchObject({
      code: "invalid_input",
      issues: expect.arrayContaining([expect.objectContaining({ path: "questions[0].id" })]),
    });
    expect(await env.broker.list()).toEqual([]);
  });
});
