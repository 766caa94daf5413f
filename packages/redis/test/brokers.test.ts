import { type AskUserBroker, createAskUser, createTextChannel } from "@ask-user/core";
import type { AskUserLogger, QuestionRecord } from "@ask-user/core/store";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createRedisStore, type RedisStore } from "../src/index.ts";
import { freshPrefix, useRedisServer } from "./redis-server.ts";

const server = useRedisServer();
const room = { channel: "sms", conversation: "+4915112345678" };
const deployInput = {
  questions: [
    {
      id: "deploy_target",
      header: "Deploy",
      question: "Where should I deploy?",
      options: [{ label: "Staging (Recommended)", description: "Safe" }, { label: "Production" }],
    },
  ],
};

const quiet: AskUserLogger = { warn: () => undefined, error: () => undefined };
const stores: RedisStore[] = [];
const brokers: AskUserBroker[] = [];
afterEach(async () => {
  for (const broker of brokers.splice(0)) await broker.close();
  for (const store of stores.splice(0)) await store.close();
});

/**
 * Gateway instances on one Redis server and prefix: each has its own store (own connections) and its
 * own broker, and all of them can send on the same SMS transport (the phone sees one conversation).
 */
function instances(count: number) {
  const keyPrefix = freshPrefix();
  const phone: string[] = [];
  const sms = createTextChannel({ name: "sms", send: async (_to, text) => phone.push(text) });
  const list = Array.from({ length: count }, () => {
    const store = createRedisStore({ url: server().url, keyPrefix, logger: quiet });
    const broker = createAskUser({ store, channels: [sms], logger: quiet });
    stores.push(store);
    brokers.push(broker);
    return broker;
  });
  return { brokers: list, phone };
}

/** The one pending question, as another instance finds it in the shared store. */
async function pendingOn(broker: AskUserBroker): Promise<QuestionRecord> {
  return vi.waitFor(async () => {
    const [record] = await broker.list({ status: "pending" });
    if (!record?.deliveries.length) throw new Error("not delivered yet");
    return record;
  });
}

describe("several gateway instances over one Redis", () => {
  it("an answer taken by instance B wakes the ask() waiting on instance A", async () => {
    const {
      brokers: [a, b],
      phone,
    } = instances(2);
    if (!a || !b) throw new Error("two instances expected");
    await Promise.all([a.ready, b.ready]);
    const result = a.ask(deployInput, { target: room });
    await pendingOn(b);
    expect(phone[0]).toContain("1. Staging (Recommended) — Safe");

    const outcome = await b.handleReply({ ...room, userId: room.conversation, text: "production" });
    expect(outcome).toMatchObject({ kind: "answered", text: "Recorded: Production" });
    expect(await result).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"] } },
    });
  });

  it("an operator's answer and a skip on one instance reach the agents waiting on the others", async () => {
    const {
      brokers: [a, b, c],
    } = instances(3);
    if (!a || !b || !c) throw new Error("three instances expected");
    const first = await a.create(deployInput, { target: room, runId: "run-1" });
    const second = await b.create(deployInput, { target: room, runId: "run-2" });
    const waitingOnA = a.wait(first.id);
    const waitingOnB = b.wait(second.id);

    const operator = { channel: "web", userId: "op", displayName: "Operator" };
    expect(await c.answer(first.id, { deploy_target: ["Staging"] }, operator)).toMatchObject({ ok: true });
    expect(await c.skip(second.id, operator)).toMatchObject({ ok: true });
    expect(await waitingOnA).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Staging (Recommended)"] } },
    });
    expect(await waitingOnB).toEqual({ status: "no_answer", reason: "skipped" });
  });

  it("when two instances answer the same question at once, the first wins and the other is told why", async () => {
    const {
      brokers: [a, b],
    } = instances(2);
    if (!a || !b) throw new Error("two instances expected");
    const result = a.ask(deployInput, { target: room });
    const record = await pendingOn(b);
    const alice = { channel: "web", userId: "alice", displayName: "@alice" };
    const bob = { channel: "web", userId: "bob", displayName: "@bob" };
    const outcomes = await Promise.all([
      a.answer(record.id, { deploy_target: ["Staging"] }, alice),
      b.answer(record.id, { deploy_target: ["Production"] }, bob),
    ]);

    const won = outcomes.findIndex((o) => o.ok);
    const lost = outcomes.find((o) => !o.ok);
    expect(won).toBeGreaterThanOrEqual(0);
    expect(lost?.message).toBe(
      `This question was already answered by ${won === 0 ? "@alice" : "@bob"} via the web panel.`,
    );
    expect(await result).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: [won === 0 ? "Staging (Recommended)" : "Production"] } },
    });
  });

  it("an instance started later finds the pending question and its answer wakes the first", async () => {
    const {
      brokers: [a],
    } = instances(1);
    if (!a) throw new Error("one instance expected");
    const result = a.ask(deployInput, { target: room });
    const record = await pendingOn(a);

    const late = createRedisStore({
      url: server().url,
      keyPrefix: stores[0]?.keyPrefix ?? "",
      logger: quiet,
    });
    stores.push(late);
    const sms = createTextChannel({ name: "sms", send: async () => "late-1" });
    const b = createAskUser({ store: late, channels: [sms], logger: quiet });
    brokers.push(b);
    await b.ready;
    const tapped = await b.handleReply({ ...room, userId: room.conversation, text: "1", replyTo: "1" });
    expect(tapped).toMatchObject({ kind: "answered", record: { id: record.id } });
    expect(await result).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Staging (Recommended)"] } },
    });
  });
});
