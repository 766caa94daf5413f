import { afterEach, describe, expect, it } from "vitest";
import { type AskUserBroker, createAskUser } from "../src/broker/broker.ts";
import { RecentRecords } from "../src/broker/recent.ts";
import type { QuestionRecord } from "../src/model/types.ts";
import type { QuestionStore } from "../src/ports/store.ts";
import { createMemoryStore } from "../src/stores/memory.ts";
import { createFakeClock } from "../src/testing/fake-clock.ts";
import { sampleRecord } from "../src/testing/records.ts";
import { deployInput, recordingLogger, T0 } from "./helpers.ts";

const operator = { channel: "http", userId: "op" };
const brokers: AskUserBroker[] = [];
afterEach(async () => {
  for (const broker of brokers.splice(0)) await broker.close();
});

/**
 * A memory store that counts reads, and whose change feed can be muted: writes made meanwhile are
 * like another process's that the broker does not hear about (a second gateway on one SQLite file).
 */
function setup() {
  const inner = createMemoryStore();
  const counts = { get: 0 };
  let muted = false;
  const store: QuestionStore = {
    ...inner,
    get(id) {
      counts.get++;
      return inner.get(id);
    },
    subscribe: (listener) =>
      inner.subscribe((change) => {
        if (!muted) listener(change);
      }),
  };
  const broker = createAskUser({
    store,
    channels: [],
    clock: createFakeClock(T0),
    logger: recordingLogger(),
  });
  brokers.push(broker);
  /** Runs `work` on the store with the broker not hearing of it. */
  const unheard = async (work: () => Promise<unknown>) => {
    muted = true;
    try {
      await work();
    } finally {
      muted = false;
    }
  };
  return { broker, store, counts, unheard };
}

describe("the broker's recent records (a transition's first guess)", () => {
  it("answers a question it heard written without reading the store", async () => {
    const { broker, counts } = setup();
    await broker.ready;
    const record = await broker.create(deployInput);
    counts.get = 0;
    const outcome = await broker.answer(record.id, { deploy_target: ["production"] }, operator);
    expect(outcome.ok && outcome.record).toMatchObject({ status: "answered", version: 2 });
    expect(counts.get).toBe(0);
    // Skipping it next starts from the answered record it heard: refused on the stored one.
    const skipped = await broker.skip(record.id, operator);
    expect(skipped).toMatchObject({ ok: false, reason: "answered" });
    expect(await broker.get(record.id)).toMatchObject({ status: "answered", version: 2 });
  });

  it("a write it did not hear fails the guess's compare-and-set; the stored record decides", async () => {
    const { broker, store, counts, unheard } = setup();
    await broker.ready;
    const record = await broker.create(deployInput);
    const stored = (await store.get(record.id)) as QuestionRecord;
    await unheard(() =>
      store.compareAndSet(1, { ...stored, version: 2, status: "cancelled", resolvedAt: T0 }),
    );
    counts.get = 0;
    const outcome = await broker.answer(record.id, { deploy_target: ["Production"] }, operator);
    expect(outcome).toMatchObject({ ok: false, reason: "cancelled" });
    expect(counts.get).toBe(1);
    expect(await broker.get(record.id)).toMatchObject({ status: "cancelled", version: 2 });
  });

  it("a change it did not hear is kept: the answer is written over the stored version", async () => {
    const { broker, store, unheard } = setup();
    await broker.ready;
    const record = await broker.create(deployInput);
    const stored = (await store.get(record.id)) as QuestionRecord;
    const delivery = { channel: "sms", conversation: "1", messageId: "7", kind: "notice" as const };
    await unheard(() => store.compareAndSet(1, { ...stored, version: 2, deliveries: [delivery] }));
    const outcome = await broker.answer(record.id, { deploy_target: ["Production"] }, operator);
    expect(outcome.ok && outcome.record).toMatchObject({ status: "answered", version: 3 });
    expect(await broker.get(record.id)).toMatchObject({ version: 3, deliveries: [delivery] });
  });

  it("decides a refusal again on the stored record: a question pruned unheard is unknown", async () => {
    const { broker, store, unheard } = setup();
    await broker.ready;
    const answered = await broker.create(deployInput);
    await broker.answer(answered.id, { deploy_target: ["Production"] }, operator);
    const pending = await broker.create(deployInput);
    await unheard(async () => {
      const cancelled = (await store.get(pending.id)) as QuestionRecord;
      await store.compareAndSet(1, { ...cancelled, version: 2, status: "cancelled", resolvedAt: T0 });
      expect(await store.prune(Number.MAX_SAFE_INTEGER)).toBe(2);
    });
    // The guesses say "answered" and "pending"; the store has neither.
    expect(await broker.skip(answered.id, operator)).toMatchObject({ ok: false, reason: "unknown" });
    const wrong = await broker.answer(pending.id, { nope: ["x"] }, operator);
    expect(wrong).toMatchObject({ ok: false, reason: "unknown" });
    const right = await broker.answer(pending.id, { deploy_target: ["Production"] }, operator);
    expect(right).toMatchObject({ ok: false, reason: "unknown" });
  });
});

describe("RecentRecords", () => {
  it("keeps the newest records up to its limit, never an older version over a newer one", () => {
    const recent = new RecentRecords(2);
    const [a, b, c] = [sampleRecord(), sampleRecord(), sampleRecord()];
    recent.remember(a);
    recent.remember(b);
    recent.remember({ ...a, version: 2 }); // a is the newest now
    recent.remember(c); // b goes
    expect(recent.size).toBe(2);
    expect(recent.guess(b.id)).toBeUndefined();
    expect(recent.guess(a.id)?.version).toBe(2);
    recent.remember(a); // version 1 after 2: ignored
    expect(recent.guess(a.id)?.version).toBe(2);
    recent.forget(a.id);
    expect(recent.guess(a.id)).toBeUndefined();
  });

  it("hands out private copies, and keeps its own copy of what it is told", () => {
    const recent = new RecentRecords();
    const record = sampleRecord();
    recent.remember(record);
    record.status = "answered";
    const guess = recent.guess(record.id) as QuestionRecord;
    expect(guess.status).toBe("pending");
    guess.deliveries.push({ channel: "x", conversation: "y", messageId: "z", kind: "prompt" });
    expect(recent.guess(record.id)?.deliveries).toEqual([]);
  });
});
