import { QuestionNotFoundError } from "@ask-user/client";
import { type AskUserBroker, createAskUser, createMemoryStore } from "@ask-user/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createLocalBackend } from "../src/local-backend.ts";
import { createEndWaiters } from "../src/mcp/end-waiters.ts";
import { createProgressTicker, type WaitingQuestion } from "../src/mcp/progress.ts";

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const input = {
  questions: [
    {
      id: "deploy_target",
      header: "Deploy",
      question: "Where should I deploy?",
      options: [{ label: "Staging" }, { label: "Production" }],
    },
  ],
  timeoutSeconds: 600,
};

/** A real broker on the memory store, with its subscriptions counted (taken, and still active). */
function countedBroker() {
  const broker = createAskUser({ store: createMemoryStore(), channels: [], logger: silent });
  const counts = { subscribed: 0, active: 0 };
  const counted: AskUserBroker = {
    ...broker,
    subscribe(listener) {
      counts.subscribed++;
      counts.active++;
      const stop = broker.subscribe(listener);
      return () => {
        counts.active--;
        stop();
      };
    },
  };
  return { broker: counted, counts, close: () => broker.close() };
}

const brokers: Array<() => Promise<void>> = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const close of brokers.splice(0)) await close();
});

describe("waiting for the end of many questions (local backend)", () => {
  it("one broker subscription serves every waiter; an answer wakes only its own waiter", async () => {
    const { broker, counts, close } = countedBroker();
    brokers.push(close);
    const backend = createLocalBackend(broker, { defaultTarget: undefined, channels: new Set() });
    const questions = await Promise.all(Array.from({ length: 50 }, () => backend.create(input)));
    const ended = new Map<string, string | undefined>();
    const waitForEnd = backend.waitForEnd?.bind(backend);
    if (!waitForEnd) throw new Error("the local backend waits for an end");
    const waits = questions.map((q) =>
      waitForEnd(q.id, new AbortController().signal).then((end) => ended.set(q.id, end?.status)),
    );
    await vi.waitFor(() => expect(counts.active).toBe(1));
    const first = questions[0]?.id as string;
    await broker.answer(first, { deploy_target: ["Production"] }, { channel: "web", userId: "alice" });
    await vi.waitFor(() => expect(ended.get(first)).toBe("answered"));
    expect(ended.size).toBe(1);
    expect(counts.subscribed).toBe(1);
    for (const q of questions.slice(1)) await broker.cancel(q.id);
    await Promise.all(waits);
    expect(new Set(ended.values())).toEqual(new Set(["answered", "cancelled"]));
    // Nothing waits any more: the subscription is given up.
    expect(counts.active).toBe(0);
  });

  it("resolves at once for an ended question, undefined on abort, and 404 for an unknown id", async () => {
    const { broker, counts, close } = countedBroker();
    brokers.push(close);
    const backend = createLocalBackend(broker, { defaultTarget: undefined, channels: new Set() });
    const wait = (id: string, signal = new AbortController().signal) =>
      backend.waitForEnd?.(id, signal) as Promise<{ status: string } | undefined>;
    const done = await backend.create(input);
    await broker.skip(done.id, { channel: "web", userId: "bob" });
    expect((await wait(done.id))?.status).toBe("skipped");
    const pending = await backend.create(input);
    const abort = new AbortController();
    const aborted = wait(pending.id, abort.signal);
    abort.abort("stopped");
    expect(await aborted).toBeUndefined();
    expect((await broker.get(pending.id))?.status).toBe("pending"); // waiting ends, the question does not
    const unknown = await wait("no-such-question").catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(QuestionNotFoundError);
    expect(unknown).toMatchObject({ status: 404, reason: "not_found", code: "unknown_question" });
    expect(counts.active).toBe(0);
  });

  it("a resolution whose event was missed is found by the shared re-check", async () => {
    const { broker, close } = countedBroker();
    brokers.push(close);
    const record = await broker.create(input);
    // A broker whose events never arrive (as when a store's subscription dropped them).
    const deaf: AskUserBroker = { ...broker, subscribe: () => () => {} };
    const waiters = createEndWaiters(deaf, { recheckMs: 50 });
    const waiting = waiters.wait(record.id);
    expect(waiters.size).toBe(1);
    await broker.answer(record.id, { deploy_target: ["Staging"] }, { channel: "web", userId: "alice" });
    expect((await waiting)?.status).toBe("answered");
    expect(waiters.size).toBe(0);
  });
});

describe("progress for many waiting calls", () => {
  const question = (id: string): WaitingQuestion => ({
    id,
    expiresAt: Date.now() + 600_000,
    timeoutSeconds: 600,
  });

  it("one timer for all calls; each call sends at once, then at most an interval apart", async () => {
    vi.useFakeTimers();
    const ticker = createProgressTicker(1000, silent);
    const sent = new Map<number, number[]>();
    const stops: Array<() => void> = [];
    for (let i = 0; i < 40; i++) {
      sent.set(i, []);
      const send = async () => {
        sent.get(i)?.push(Date.now());
      };
      stops.push(ticker.start(question(`q${i}`), send, new AbortController().signal));
      await vi.advanceTimersByTimeAsync(37); // calls start at different moments
    }
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(5000);
    for (const times of sent.values()) {
      expect(times.length).toBeGreaterThanOrEqual(5);
      for (let k = 1; k < times.length; k++) {
        expect((times[k] as number) - (times[k - 1] as number)).toBeLessThanOrEqual(1000);
      }
    }
    for (const stop of stops) stop();
    expect(ticker.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0); // the timer runs only while a call waits
  });

  it("sends nothing after its call stopped or was aborted; progress only increases", async () => {
    vi.useFakeTimers();
    const ticker = createProgressTicker(100, silent);
    const seen: number[] = [];
    const abort = new AbortController();
    const stop = ticker.start(
      question("q"),
      async ({ progress }) => {
        seen.push(progress);
      },
      abort.signal,
    );
    await vi.advanceTimersByTimeAsync(350);
    expect(seen).toEqual([0, 0.1, 0.2, 0.3]);
    abort.abort("gone");
    await vi.advanceTimersByTimeAsync(300);
    expect(seen).toHaveLength(4);
    stop();
    expect(ticker.size).toBe(0);
  });
});
