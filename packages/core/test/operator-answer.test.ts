import { afterEach, describe, expect, it } from "vitest";
import { type AskUserBroker, createAskUser } from "../src/broker/broker.ts";
import type { QuestionRecord } from "../src/model/types.ts";
import type { QuestionStore } from "../src/ports/store.ts";
import { createMemoryStore } from "../src/stores/memory.ts";
import { createFakeClock } from "../src/testing/fake-clock.ts";
import { deployInput, recordingLogger, T0 } from "./helpers.ts";

const operator = { channel: "http", userId: "op" };
const brokers: AskUserBroker[] = [];
afterEach(async () => {
  for (const broker of brokers.splice(0)) await broker.close();
});

/** A memory store that counts reads and can run something just before a compare-and-set. */
function countingStore() {
  const inner = createMemoryStore();
  const counts = { get: 0 };
  let beforeWrite: (() => Promise<void>) | undefined;
  const store: QuestionStore = {
    ...inner,
    get(id) {
      counts.get++;
      return inner.get(id);
    },
    async compareAndSet(expected: number, next: QuestionRecord) {
      const run = beforeWrite;
      beforeWrite = undefined;
      await run?.();
      return inner.compareAndSet(expected, next);
    },
  };
  return { store, counts, beforeNextWrite: (work: () => Promise<void>) => (beforeWrite = work) };
}

function setup() {
  const { store, counts, beforeNextWrite } = countingStore();
  const clock = createFakeClock(T0);
  const broker = createAskUser({ store, channels: [], clock, logger: recordingLogger() });
  brokers.push(broker);
  return { broker, store, counts, beforeNextWrite };
}

describe("answer() from an operator surface", () => {
  it("reads the question at most once: the record it checked the answers against is the one it changes", async () => {
    const { broker, counts } = setup();
    await broker.ready;
    const record = await broker.create(deployInput);
    counts.get = 0;
    const outcome = await broker.answer(record.id, { deploy_target: ["production"] }, operator);
    expect(outcome.ok && outcome.record).toMatchObject({
      status: "answered",
      answers: { deploy_target: ["Production"] },
      version: 2,
    });
    // Not even once here: the broker heard the question written (its recent records, recent.test.ts).
    expect(counts.get).toBe(0);
    expect((await broker.get(record.id))?.status).toBe("answered");
  });

  it("is decided on the stored record when another surface wrote between its read and its write", async () => {
    const { broker, beforeNextWrite } = setup();
    await broker.ready;
    const record = await broker.create(deployInput);
    // A skip from the web panel lands after answer() read the question, before its compare-and-set.
    beforeNextWrite(async () => {
      const skipped = await broker.skip(record.id, { channel: "web", userId: "alice" });
      expect(skipped.ok).toBe(true);
    });
    const outcome = await broker.answer(record.id, { deploy_target: ["Production"] }, operator);
    expect(outcome).toMatchObject({ ok: false, reason: "skipped" });
    const stored = await broker.get(record.id);
    expect(stored).toMatchObject({ status: "skipped", version: 2 });
    expect(stored?.answers).toBeUndefined();
  });
});
