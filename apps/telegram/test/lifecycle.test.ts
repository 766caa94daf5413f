import { createMemoryStore } from "@ask-user/core";
import { createFakeClock } from "@ask-user/core/testing";
import { describe, expect, it } from "vitest";
import {
  ADA,
  ask,
  botMessages,
  DEPLOY,
  edited,
  fake,
  MODES,
  reacted,
  result,
  start,
  visible,
} from "./harness.ts";

const T0 = Date.UTC(2026, 0, 1, 14, 0);

function callbackData(message: { reply_markup?: unknown }, row: number): string {
  const markup = message.reply_markup as { inline_keyboard: Array<Array<{ callback_data: string }>> };
  return markup.inline_keyboard[row]?.[0]?.callback_data ?? "";
}

describe.each(MODES)("lifecycle (%s)", (mode) => {
  it("edits the message when the question expires, and tells a later tap when it expired", async () => {
    const clock = createFakeClock(T0);
    const running = await start(mode, { clock });
    const ada = running.tg.user(ADA);
    const { record, message, chatId } = await ask(running, DEPLOY, String(ADA.id));
    expect(message.text).toMatch(/Expires at 14:15 UTC\.$/);

    await clock.advance(900_000);
    expect(await result(running, record.id)).toEqual({ status: "no_answer", reason: "expired" });
    const summary = await edited(running, chatId, message.message_id);
    expect([summary.text, summary.reply_markup]).toEqual(["⌛ Deploy — expired", undefined]);

    const late = ada.tap(chatId, message.message_id, callbackData(message, 0), { stale: true });
    expect(await ada.waitForAnswer(late)).toMatchObject({
      text: "This question expired at 14:15 UTC.",
      show_alert: true,
    });
  });

  it("expires a question on a tap that comes after the deadline before the timer fired", async () => {
    const clock = createFakeClock(T0);
    const running = await start(mode, { clock });
    const ada = running.tg.user(ADA);
    const { record, message, chatId } = await ask(running, DEPLOY, String(ADA.id));

    clock.jump(901_000); // the process was suspended past the deadline
    const query = ada.press(chatId, message.message_id, "Production");
    expect(await ada.waitForAnswer(query)).toMatchObject({
      text: "This question expired at 14:15 UTC.",
      show_alert: true,
    });
    expect(await result(running, record.id)).toEqual({ status: "no_answer", reason: "expired" });
    expect((await edited(running, chatId, message.message_id)).text).toBe("⌛ Deploy — expired");
  });

  it("edits the message when the question is cancelled or answered on another surface", async () => {
    const running = await start(mode);
    const cancelled = await ask(running, DEPLOY, String(ADA.id));
    await running.broker.cancel(cancelled.record.id);
    const summary = await edited(running, cancelled.chatId, cancelled.message.message_id);
    expect([summary.text, summary.reply_markup]).toEqual(["✖ Deploy — cancelled", undefined]);

    const web = await ask(running, DEPLOY, String(ADA.id));
    await running.broker.answer(
      web.record.id,
      { deploy_target: ["Production"] },
      { channel: "web", userId: "op", displayName: "Operator" },
    );
    expect((await edited(running, web.chatId, web.message.message_id)).text).toBe(
      "✅ Deploy: Production — Operator via the web panel",
    );
  });

  it("after a restart (new bot, channel and broker over the same store) a tap resolves the question", async () => {
    const tg = await fake();
    const store = createMemoryStore();
    const first = await start(mode, { tg, store });
    const { record, message, chatId } = await ask(first, DEPLOY, String(ADA.id));
    await first.stop();

    const second = await start(mode, { tg, store });
    const ada = tg.user(ADA);
    const query = ada.press(chatId, message.message_id, "Production");
    expect(await ada.waitForAnswer(query)).toMatchObject({ text: "Recorded: Production" });
    expect(await result(second, record.id)).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"] } },
    });
    const summary = await edited(second, chatId, message.message_id);
    expect([visible(summary.text), summary.reply_markup]).toEqual([
      "✅ Deploy: Production — @ada",
      undefined,
    ]);
  });

  it("waits out a 429 with retry_after and then delivers", async () => {
    const running = await start(mode);
    running.tg.failNext("sendMessage", { status: 429, retry_after: 1 });
    const { record, message } = await ask(running, DEPLOY, String(ADA.id));
    expect(record.status).toBe("pending");
    expect(message.text).toMatch(/^Deploy\n/);
    const sends = running.tg.calls.filter((call) => call.method === "sendMessage");
    expect(sends.map((call) => call.error?.error_code)).toEqual([429, undefined]);
    expect((sends[1]?.at ?? 0) - (sends[0]?.at ?? 0)).toBeGreaterThanOrEqual(1000);
  });

  it("processes an update delivered twice only once", async () => {
    const seen: number[] = [];
    const running = await start(mode, {
      before: (bot) =>
        bot.on("message", async (ctx, next) => {
          seen.push(ctx.update.update_id);
          await next();
        }),
    });
    const ada = running.tg.user(ADA);
    const release = {
      questions: [
        ...DEPLOY.questions,
        {
          id: "notify",
          header: "Notify",
          question: "Tell whom?",
          options: [{ label: "Team" }, { label: "Nobody" }],
        },
      ],
    };
    const { record, message, chatId } = await ask(running, release, String(ADA.id));
    ada.sendText(chatId, "1: Production");
    await running.tg.waitUntil(() => botMessages(running.tg, chatId).length === 2);
    const updateId = seen[0] ?? -1;

    running.tg.redeliver(updateId);
    await running.tg.waitUntil(() => seen.filter((id) => id === updateId).length === 2);
    const last = ada.sendText(chatId, "Team");
    expect(await result(running, record.id)).toMatchObject({ status: "answered" });
    expect(await reacted(running.tg, chatId, last.message_id)).toEqual(["👍"]);
    await edited(running, chatId, message.message_id);
    const messages = botMessages(running.tg, chatId).map((m) => visible(m.text)?.split(".")[0]);
    expect(messages).toEqual(["✅ Deploy: Production · Notify: Team — @ada", "Recorded: Deploy: Production"]);
    expect(running.logger.lines.filter((line) => line.includes("delivered twice"))).toHaveLength(1);
  });

  it("takes a deleted or unchanged message as already final", async () => {
    const running = await start(mode);
    const { record, message, chatId } = await ask(running, DEPLOY, String(ADA.id));
    await running.bot.api.deleteMessage(chatId, message.message_id);
    await running.broker.cancel(record.id);
    await running.broker.idle();
    expect((await running.broker.get(record.id))?.deliveries[0]?.finalizedAt).toBeDefined();

    const kept = await ask(running, DEPLOY, String(ADA.id));
    await running.broker.cancel(kept.record.id);
    await running.broker.idle();
    const final = await running.broker.get(kept.record.id);
    const delivery = final?.deliveries[0];
    if (!final || !delivery) throw new Error("no delivery");
    await running.telegram.finalize({
      record: final,
      delivery,
      locale: "en",
      summary: "✖ Deploy — cancelled", // what the message shows already
    });
    expect(running.tg.calls.at(-1)?.error?.description).toMatch(/^Bad Request: message is not modified/);
    expect(running.logger.lines).toEqual([]);
  });
});

describe("webhook secret", () => {
  it("answers a request without the right secret with 401 and runs no handler", async () => {
    const running = await start("webhook");
    const ada = running.tg.user(ADA);
    const { record, message, chatId } = await ask(running, DEPLOY, String(ADA.id));
    const update = {
      update_id: 999,
      callback_query: {
        id: "forged",
        from: { id: ADA.id, is_bot: false, first_name: "Ada" },
        chat_instance: "1",
        data: callbackData(message, 1),
        message: {
          message_id: message.message_id,
          date: 1,
          chat: { id: chatId, type: "private" },
          text: "x",
        },
      },
    };
    for (const headers of [{ "x-telegram-bot-api-secret-token": "wrong" }, {}]) {
      const response = await fetch(running.webhookUrl ?? "", {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(update),
      });
      expect(response.status).toBe(401);
    }
    await running.broker.idle();
    expect((await running.broker.get(record.id))?.status).toBe("pending");
    expect(running.tg.calls.filter((call) => call.method === "answerCallbackQuery")).toEqual([]);

    const query = ada.press(chatId, message.message_id, "Production");
    expect(await ada.waitForAnswer(query)).toMatchObject({ text: "Recorded: Production" });
  });
});
