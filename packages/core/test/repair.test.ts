import { afterEach, describe, expect, it } from "vitest";
import { type AskUserBroker, type AskUserOptions, createAskUser } from "../src/broker/broker.ts";
import type { QuestionRecord } from "../src/model/types.ts";
import type { QuestionStore } from "../src/ports/store.ts";
import { encodeAction } from "../src/prompt/codec.ts";
import { createMemoryStore } from "../src/stores/memory.ts";
import { createFakeClock, type FakeClock } from "../src/testing/fake-clock.ts";
import { sampleRecord } from "../src/testing/records.ts";
import { recordingChannel, recordingLogger, T0 } from "./helpers.ts";

const room = { channel: "chat", conversation: "room-1" };
const brokers: AskUserBroker[] = [];
afterEach(async () => {
  for (const broker of brokers.splice(0)) await broker.close();
});

function start(store: QuestionStore, clock: FakeClock, overrides: Partial<AskUserOptions> = {}) {
  const channel = recordingChannel();
  const broker = createAskUser({
    store,
    channels: [channel],
    clock,
    logger: recordingLogger(),
    claimMs: 10_000,
    repairIntervalMs: 60_000,
    ...overrides,
  });
  brokers.push(broker);
  return { broker, channel };
}

/** A question as a process leaves it when it dies between storing and delivering. */
function stored(overrides: Partial<QuestionRecord> = {}): QuestionRecord {
  return sampleRecord({
    target: room,
    createdAt: T0 - 5_000,
    expiresAt: T0 + 900_000,
    claim: { by: "dead", until: T0 - 1 },
    ...overrides,
  });
}

/** A question that ended while its prompt message was still live. */
function endedUnedited(overrides: Partial<QuestionRecord> = {}): QuestionRecord {
  return stored({
    status: "answered",
    answers: { deploy_target: ["Production"] },
    resolvedBy: { channel: "chat", userId: "u1", displayName: "@alice" },
    resolvedAt: T0 - 1_000,
    deliveries: [{ channel: "chat", conversation: "room-1", messageId: "m-1", kind: "prompt" }],
    ...overrides,
  });
}

describe("repair at start", () => {
  it("delivers a question that was stored but never delivered, and keeps its message", async () => {
    const clock = createFakeClock(T0);
    const store = createMemoryStore();
    const record = stored();
    await store.create(record);
    const { broker, channel } = start(store, clock);
    await broker.ready;
    await broker.idle();
    expect(channel.delivered.map((d) => d.record.id)).toEqual([record.id]);
    const after = await store.get(record.id);
    expect(after?.deliveries.map((d) => d.kind)).toEqual(["prompt"]);
    expect(after?.claim).toBeUndefined();
    expect(await store.list({ needsRepair: true })).toEqual([]);
  });

  it("ends a stored question undeliverable when its channel refuses it", async () => {
    const clock = createFakeClock(T0);
    const store = createMemoryStore();
    const record = stored();
    await store.create(record);
    const channel = recordingChannel();
    channel.failDelivery = new Error("chat not found");
    const broker = createAskUser({ store, channels: [channel], clock, logger: recordingLogger() });
    brokers.push(broker);
    await broker.ready;
    await broker.idle();
    expect(await store.get(record.id)).toMatchObject({
      status: "undeliverable",
      error: "Error: chat not found",
    });
  });

  it("leaves a question alone while another instance's claim holds, then repairs it", async () => {
    const clock = createFakeClock(T0);
    const store = createMemoryStore();
    const record = stored({ claim: { by: "sibling", until: T0 + 5_000 } });
    await store.create(record);
    const { broker, channel } = start(store, clock);
    await broker.ready;
    await broker.idle();
    expect(channel.delivered).toEqual([]);
    await clock.advance(5_000);
    await broker.idle();
    expect(channel.delivered.map((d) => d.record.id)).toEqual([record.id]);
  });

  it("edits an ended question's live message to its summary", async () => {
    const clock = createFakeClock(T0);
    const store = createMemoryStore();
    const record = endedUnedited();
    await store.create(record);
    const { broker, channel } = start(store, clock);
    await broker.ready;
    await broker.idle();
    expect(channel.finalized.map((f) => [f.delivery.messageId, f.summary])).toEqual([
      ["m-1", "✅ Deploy: Production — @alice"],
    ]);
    expect((await store.get(record.id))?.deliveries[0]?.finalizedAt).toBe(T0);
  });

  it("retries a failing edit with growing pauses until it succeeds", async () => {
    const clock = createFakeClock(T0);
    const store = createMemoryStore();
    const record = endedUnedited();
    await store.create(record);
    const { broker, channel } = start(store, clock);
    let failures = 3;
    const tries: number[] = [];
    const finalize = channel.finalize;
    channel.finalize = async (request) => {
      tries.push(clock.now() - T0);
      if (failures-- > 0) throw new Error("502 Bad Gateway");
      await finalize(request);
    };
    await broker.ready;
    for (let step = 0; step < 20; step++) {
      await broker.idle();
      await clock.advance(1_000);
    }
    expect(tries).toEqual([0, 2_000, 6_000, 14_000]);
    const after = await store.get(record.id);
    expect(after?.deliveries[0]).toMatchObject({ finalizedAt: T0 + 14_000, attempts: 3 });
    expect(after?.claim).toBeUndefined();
  });

  it("gives an edit up a day after the question ended", async () => {
    const clock = createFakeClock(T0);
    const store = createMemoryStore();
    const record = endedUnedited({ resolvedAt: T0 - 86_400_000 });
    await store.create(record);
    const { broker, channel } = start(store, clock);
    channel.finalize = async () => {
      throw new Error("message to edit not found");
    };
    await broker.ready;
    await broker.idle();
    expect((await store.get(record.id))?.deliveries[0]).toMatchObject({ abandonedAt: T0, attempts: 1 });
    expect(await store.list({ needsRepair: true })).toEqual([]);
  });

  it("repairs each question once among several instances, and only where its channel runs", async () => {
    const clock = createFakeClock(T0);
    const store = createMemoryStore();
    const undelivered = stored();
    const unedited = endedUnedited();
    await store.create(undelivered);
    await store.create(unedited);
    const elsewhere = createAskUser({
      store,
      channels: [recordingChannel("other")],
      clock,
      logger: recordingLogger(),
    });
    brokers.push(elsewhere);
    await elsewhere.ready;
    expect((await store.get(undelivered.id))?.deliveries).toEqual([]);
    const a = start(store, clock);
    const b = start(store, clock);
    await Promise.all([a.broker.ready, b.broker.ready]);
    await Promise.all([a.broker.idle(), b.broker.idle()]);
    const delivered = [...a.channel.delivered, ...b.channel.delivered].map((d) => d.record.id);
    const finalized = [...a.channel.finalized, ...b.channel.finalized].map((f) => f.record.id);
    expect(delivered).toEqual([undelivered.id]);
    expect(finalized).toEqual([unedited.id]);
  });

  it("never repairs a question its own broker is still delivering", async () => {
    const clock = createFakeClock(T0);
    const store = createMemoryStore();
    const { broker, channel } = start(store, clock, { claimMs: 1 });
    let release: () => void = () => undefined;
    const deliver = channel.deliver;
    channel.deliver = async (request) => {
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return deliver(request);
    };
    await broker.ready;
    const created = broker.create(
      {
        questions: [{ id: "q", header: "Q", question: "Q?", options: [{ label: "A" }, { label: "B" }] }],
      },
      { target: room },
    );
    await clock.advance(120_000); // two sweeps pass while the platform holds the send open
    release();
    await created;
    await broker.idle();
    expect(channel.delivered).toHaveLength(1);
  });
});

describe("closing right after an answer", () => {
  it("still edits the summary when the store wakes the waiter before the write call returns", async () => {
    const clock = createFakeClock(T0);
    const inner = createMemoryStore();
    const listeners = new Set<(change: import("../src/ports/store.ts").StoreChange) => void>();
    // A store that tells its subscribers first and returns from the write later (a worker thread's order).
    const store: QuestionStore = {
      ...inner,
      subscribe(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      async create(record) {
        await inner.create(record);
        for (const listener of listeners)
          listener({ record: structuredClone(record), previousStatus: undefined });
      },
      async compareAndSet(expected, next) {
        const before = await inner.get(next.id);
        const ok = await inner.compareAndSet(expected, next);
        if (ok)
          for (const listener of listeners)
            listener({ record: structuredClone(next), previousStatus: before?.status });
        await new Promise((resolve) => setImmediate(resolve));
        return ok;
      },
    };
    const { broker, channel } = start(store, clock, { answerers: "conversation" });
    await broker.ready;
    const input = {
      questions: [{ id: "q", header: "Q", question: "Q?", options: [{ label: "A" }, { label: "B" }] }],
    };
    const asked = broker.ask(input, { target: room });
    await new Promise((resolve) => setImmediate(resolve));
    const [record] = await broker.list({ status: "pending" });
    if (!record) throw new Error("no question");
    void broker.handleAction({
      ...room,
      userId: "u",
      data: encodeAction(record.tokens[0] ?? "", { kind: "option", index: 1 }),
    });
    await asked;
    await broker.close();
    expect(channel.finalized.map((f) => f.summary)).toEqual(["✅ Q: B — someone"]);
  });
});
