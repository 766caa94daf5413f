/**
 * Taps on a slow store (issue #14: SQLite may wait up to 30 s for another process's write lock): the
 * tap is acknowledged within Telegram's patience all the same, and the outcome shows once the store
 * has written it.
 */
import { createMemoryStore } from "@ask-user/core";
import { createFakeClock, createSlowStore } from "@ask-user/core/testing";
import { describe, expect, it } from "vitest";
import { ADA, ask, botMessages, DEPLOY, edited, MODES, result, start, visible } from "./harness.ts";

const WRITE_DELAY_MS = 4000;

describe.each(MODES)("a tap while the store is slow to write (%s)", (mode) => {
  it("is acknowledged without text within 3 s, and the answer is recorded and shown after", async () => {
    const store = createSlowStore({ delayMs: WRITE_DELAY_MS, writes: ["compareAndSet"] });
    const running = await start(mode, { store });
    const ada = running.tg.user(ADA);
    const { record, message, chatId } = await ask(running, DEPLOY, String(ADA.id));
    store.slow = true;

    const tapped = Date.now();
    const query = ada.press(chatId, message.message_id, "Production");
    expect(await ada.waitForAnswer(query, 3000)).toEqual({ callback_query_id: query, show_alert: false });
    expect(Date.now() - tapped).toBeLessThan(3000);
    expect((await running.broker.get(record.id))?.status).toBe("pending");
    store.slow = false; // the tap's write is under way (and waits); later writes need not

    expect(await result(running, record.id, 6000)).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"] } },
    });
    expect(Date.now() - tapped).toBeGreaterThanOrEqual(WRITE_DELAY_MS);
    const summary = await edited(running, chatId, message.message_id);
    expect([visible(summary.text), summary.reply_markup]).toEqual([
      "✅ Deploy: Production — @ada",
      undefined,
    ]);
    expect(running.tg.callbackAnswers.filter((answer) => answer.callback_query_id === query)).toHaveLength(1);
  }, 15_000);

  it("sends a refusal that comes after the acknowledgement as a reply to the question", async () => {
    const clock = createFakeClock(Date.UTC(2026, 0, 1, 14, 0));
    const store = createSlowStore({
      delayMs: WRITE_DELAY_MS,
      store: createMemoryStore({ clock }),
      writes: ["compareAndSet"],
    });
    const running = await start(mode, { store, clock });
    const ada = running.tg.user(ADA);
    const { message, chatId } = await ask(running, DEPLOY, String(ADA.id));
    store.slow = true;
    clock.jump(901_000); // past the deadline: the tap expires the question, a write

    const query = ada.press(chatId, message.message_id, "Production");
    expect(await ada.waitForAnswer(query, 3000)).toEqual({ callback_query_id: query, show_alert: false });
    store.slow = false;
    const refusal = await running.tg.waitUntil(
      () =>
        botMessages(running.tg, chatId, message.message_id).find((m) => m.reply_to_message_id !== undefined),
      8000,
    );
    expect(refusal.text).toBe("This question expired at 14:15 UTC.");
    expect(refusal.reply_to_message_id).toBe(message.message_id);
    expect(running.tg.callbackAnswers.filter((answer) => answer.callback_query_id === query)).toHaveLength(1);
  }, 15_000);
});
