/**
 * Issue #14: a store whose writes wait (SQLite waits up to 30 s for a write lock another process holds)
 * must not make Slack show "This app didn't respond": taps and modal submissions are acknowledged within
 * Slack's 3 s, and the answer is recorded once the store has written it.
 */
import { createMemoryStore, type QuestionStore } from "@ask-user/core";
import { describe, expect, it } from "vitest";
import { ask, CHANNEL, DEPLOY, MODES, waitForText, world } from "./harness.ts";

const WRITE_DELAY_MS = 4000;
const SLOW = 20_000;

/** A memory store whose writes (`compareAndSet`, and `firstSeen` of its coordination) wait 4 s while `slow`. */
function slowStore() {
  const store = createMemoryStore();
  let slow = false;
  const later = async <T>(work: () => Promise<T>): Promise<T> => {
    if (slow) await new Promise((resolve) => setTimeout(resolve, WRITE_DELAY_MS));
    return work();
  };
  const wrapped: QuestionStore = {
    ...store,
    compareAndSet: (expected, next) => later(() => store.compareAndSet(expected, next)),
    firstSeen: (key, ttlMs) => later(() => store.firstSeen(key, ttlMs)),
  };
  return {
    store: wrapped,
    set: (on: boolean) => {
      slow = on;
    },
  };
}

describe.each(MODES)("a slow store over %s", (mode) => {
  it(
    "a tap is acknowledged within 3 s and the answer is recorded once the write is through",
    async () => {
      const slow = slowStore();
      const w = await world(mode, { store: slow.store, coordination: slow.store });
      const { record, ts, result } = await ask(w, DEPLOY);
      slow.set(true);
      const tappedAt = Date.now();
      const tap = await w.alice.press(CHANNEL, ts, "Production");
      expect(tap.status).toBe(200);
      expect(tap.ms).toBeLessThan(3000);
      expect((await w.broker.get(record.id))?.status).toBe("pending");
      slow.set(false); // the lock is free again; the writes already waiting still take their 4 s
      expect(await result).toEqual({ status: "answered", answers: { answers: { env: ["Production"] } } });
      expect(Date.now() - tappedAt).toBeGreaterThanOrEqual(WRITE_DELAY_MS - 100);
      await waitForText(w.slack, CHANNEL, ts, "✅ Deploy: Production — @alice");
      expect(w.alice.ephemerals()).toEqual([]);
    },
    SLOW,
  );

  it(
    "a form's choices and Send are acknowledged within 3 s each; the answer comes once the writes are through",
    async () => {
      const slow = slowStore();
      const w = await world(mode, { store: slow.store, coordination: slow.store });
      const { ts, result } = await ask(w, {
        questions: [
          {
            id: "regions",
            header: "Regions",
            question: "Which?",
            multiSelect: true,
            options: [{ label: "EU" }, { label: "US" }],
          },
        ],
      });
      slow.set(true);
      const taps = [await w.alice.choose(CHANNEL, ts, "EU"), await w.alice.press(CHANNEL, ts, "Send")];
      for (const tap of taps) {
        expect(tap.status).toBe(200);
        expect(tap.ms).toBeLessThan(3000);
      }
      slow.set(false);
      expect(await result).toEqual({ status: "answered", answers: { answers: { regions: ["EU"] } } });
      await waitForText(w.slack, CHANNEL, ts, "✅ Regions: EU — @alice");
    },
    SLOW,
  );

  it(
    "an Other… submission closes the modal within 3 s and its answer is recorded after",
    async () => {
      const slow = slowStore();
      const w = await world(mode, { store: slow.store, coordination: slow.store });
      const { record, ts, result } = await ask(w, DEPLOY);
      await w.alice.press(CHANNEL, ts, "Other…");
      const modal = await w.alice.waitForView();
      slow.set(true);
      const submittedAt = Date.now();
      const submitted = await w.alice.submit(modal.id, "Canary first");
      expect(submitted.status).toBe(200);
      expect(submitted.ms).toBeLessThan(3000);
      expect(submitted.body ?? {}).toEqual({}); // closed: no field error
      expect(w.slack.views().find((v) => v.id === modal.id)?.open).toBe(false);
      expect((await w.broker.get(record.id))?.status).toBe("pending");
      slow.set(false);
      expect(await result).toEqual({ status: "answered", answers: { answers: { env: ["Canary first"] } } });
      expect(Date.now() - submittedAt).toBeGreaterThanOrEqual(WRITE_DELAY_MS - 100);
      await waitForText(w.slack, CHANNEL, ts, "✅ Deploy: Canary first — @alice");
      expect(w.alice.ephemerals()).toEqual([]);
    },
    SLOW,
  );

  it(
    "a refusal that comes after the modal closed reaches the person as an ephemeral message",
    async () => {
      const slow = slowStore();
      const w = await world(mode, { store: slow.store, coordination: slow.store });
      const { record, ts } = await ask(w, DEPLOY);
      await w.alice.press(CHANNEL, ts, "Other…");
      const modal = await w.alice.waitForView();
      await w.broker.answer(record.id, { env: ["Production"] }, { channel: "web", userId: "op" });
      slow.set(true);
      const submitted = await w.alice.submit(modal.id, "Canary first");
      expect(submitted.ms).toBeLessThan(3000);
      expect(submitted.body ?? {}).toEqual({});
      slow.set(false);
      const late = await w.slack.waitUntil(() => w.alice.ephemerals()[0], 10_000);
      expect(late).toMatchObject({
        channel: CHANNEL,
        text: "This question was already answered by op via the web panel.",
      });
      expect((await w.broker.get(record.id))?.answers).toEqual({ env: ["Production"] });
    },
    SLOW,
  );
});

describe("a slow store and Other…", () => {
  it(
    "a tap on Other… while writes wait longer than the trigger lasts asks for a text reply, which answers",
    async () => {
      const slow = slowStore();
      const w = await world("socket", { store: slow.store, coordination: slow.store });
      const { ts, result } = await ask(w, DEPLOY);
      slow.set(true);
      const tap = await w.alice.press(CHANNEL, ts, "Other…");
      expect(tap.ms).toBeLessThan(3000);
      slow.set(false);
      const hint = await w.slack.waitUntil(() => w.alice.ephemerals()[0], 10_000);
      expect(hint.text).toBe("Type your answer as a reply.");
      expect(w.slack.views()).toEqual([]);
      await w.alice.say(CHANNEL, "Canary first", { threadTs: ts });
      expect(await result).toEqual({ status: "answered", answers: { answers: { env: ["Canary first"] } } });
    },
    SLOW,
  );
});
