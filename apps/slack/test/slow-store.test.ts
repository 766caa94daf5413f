import { createSlowStore } from "@ask-user/core/testing";
import { describe, expect, it } from "vitest";
import { ask, CHANNEL, DEPLOY, MODES, waitForText, world } from "./harness.ts";

const WRITE_DELAY_MS = 4000;
const SLOW = 20_000;

describe.each(MODES)("a slow store over %s", (mode) => {
  it(
    "a tap is acknowledged within 3 s and the answer is recorded once the write is through",
    async () => {
      const slow = createSlowStore({ delayMs: WRITE_DELAY_MS });
      const w = await world(mode, { store: slow, coordination: slow });
      const { record, ts, result } = await ask(w, DEPLOY);
      slow.slow = true;
      const tappedAt = Date.now();
      const tap = await w.alice.press(CHANNEL, ts, "Production");
      expect(tap.status).toBe(200);
      expect(tap.ms).toBeLessThan(3000);
      expect((await w.broker.get(record.id))?.status).toBe("pending");
      slow.slow = false; // the lock is free again; the writes already waiting still take their 4 s
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
      const slow = createSlowStore({ delayMs: WRITE_DELAY_MS });
      const w = await world(mode, { store: slow, coordination: slow });
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
      slow.slow = true;
      const taps = [await w.alice.choose(CHANNEL, ts, "EU"), await w.alice.press(CHANNEL, ts, "Send")];
      for (const tap of taps) {
        expect(tap.status).toBe(200);
        expect(tap.ms).toBeLessThan(3000);
      }
      slow.slow = false;
      expect(await result).toEqual({ status: "answered", answers: { answers: { regions: ["EU"] } } });
      await waitForText(w.slack, CHANNEL, ts, "✅ Regions: EU — @alice");
    },
    SLOW,
  );

  it(
    "an Other… submission closes the modal within 3 s and its answer is recorded after",
    async () => {
      const slow = createSlowStore({ delayMs: WRITE_DELAY_MS });
      const w = await world(mode, { store: slow, coordination: slow });
      const { record, ts, result } = await ask(w, DEPLOY);
      await w.alice.press(CHANNEL, ts, "Other…");
      const modal = await w.alice.waitForView();
      slow.slow = true;
      const submittedAt = Date.now();
      const submitted = await w.alice.submit(modal.id, "Canary first");
      expect(submitted.status).toBe(200);
      expect(submitted.ms).toBeLessThan(3000);
      expect(submitted.body ?? {}).toEqual({}); // closed: no field error
      expect(w.slack.views().find((v) => v.id === modal.id)?.open).toBe(false);
      expect((await w.broker.get(record.id))?.status).toBe("pending");
      slow.slow = false;
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
      const slow = createSlowStore({ delayMs: WRITE_DELAY_MS });
      const w = await world(mode, { store: slow, coordination: slow });
      const { record, ts } = await ask(w, DEPLOY);
      await w.alice.press(CHANNEL, ts, "Other…");
      const modal = await w.alice.waitForView();
      await w.broker.answer(record.id, { env: ["Production"] }, { channel: "web", userId: "op" });
      slow.slow = true;
      const submitted = await w.alice.submit(modal.id, "Canary first");
      expect(submitted.ms).toBeLessThan(3000);
      expect(submitted.body ?? {}).toEqual({});
      slow.slow = false;
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
      const slow = createSlowStore({ delayMs: WRITE_DELAY_MS });
      const w = await world("socket", { store: slow, coordination: slow });
      const { ts, result } = await ask(w, DEPLOY);
      slow.slow = true;
      const tap = await w.alice.press(CHANNEL, ts, "Other…");
      expect(tap.ms).toBeLessThan(3000);
      slow.slow = false;
      const hint = await w.slack.waitUntil(() => w.alice.ephemerals()[0], 10_000);
      expect(hint.text).toBe("Type your answer as a reply.");
      expect(w.slack.views()).toEqual([]);
      await w.alice.say(CHANNEL, "Canary first", { threadTs: ts });
      expect(await result).toEqual({ status: "answered", answers: { answers: { env: ["Canary first"] } } });
    },
    SLOW,
  );
});
