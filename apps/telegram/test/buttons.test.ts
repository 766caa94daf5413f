import { describe, expect, it } from "vitest";
import {
  ADA,
  ask,
  BOB,
  botMessages,
  buttons,
  DEPLOY,
  edited,
  GROUP,
  MODES,
  reacted,
  result,
  start,
  visible,
} from "./harness.ts";

describe.each(MODES)("buttons (%s)", (mode) => {
  it("shows the question with its descriptions, deadline and one full-width button per option", async () => {
    const running = await start(mode);
    const { message } = await ask(running, DEPLOY, String(ADA.id));

    expect(message.text).toMatch(
      /^Deploy\nWhere should I deploy\?\n\n1\. Staging \(Recommended\) — Safe, resets nightly\n2\. Production — Live traffic\n3\. Canary\n\nExpires at (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC\.$/,
    );
    expect(message.entities).toContainEqual({ type: "bold", offset: 0, length: 6 });
    expect(buttons(message)).toEqual([
      ["Staging (Recommended)"],
      ["Production"],
      ["Canary"],
      ["Other…"],
      ["Skip"],
    ]);
  });

  it("resolves with the tapped option, confirms the tap and edits the message to the summary", async () => {
    const running = await start(mode);
    const ada = running.tg.user(ADA);
    for (const label of ["Staging (Recommended)", "Production", "Canary"]) {
      const { record, message, chatId } = await ask(running, DEPLOY, String(ADA.id));
      const query = ada.press(chatId, message.message_id, label);

      expect(await ada.waitForAnswer(query)).toMatchObject({ text: `Recorded: ${label}`, show_alert: false });
      expect(await result(running, record.id)).toEqual({
        status: "answered",
        answers: { answers: { deploy_target: [label] } },
      });
      const summary = await edited(running, chatId, message.message_id);
      expect(visible(summary.text)).toBe(`✅ Deploy: ${label} — @ada`);
      expect(summary.reply_markup).toBeUndefined();
    }
  });

  it("Other… asks for a reply with a force-reply, and the tapper's reply answers the question", async () => {
    const running = await start(mode);
    const ada = running.tg.user(ADA);
    const { record, message, chatId } = await ask(running, DEPLOY, String(GROUP), {
      creator: { userId: String(ADA.id), displayName: "@ada" },
    });

    const query = ada.press(chatId, message.message_id, "Other…");
    expect(await ada.waitForAnswer(query)).toMatchObject({
      text: "Type your answer as a reply.",
      show_alert: false,
    });
    const prompt = await running.tg.waitUntil(() =>
      running.tg.messages(chatId).find((m) => m.from.is_bot && m.reply_to_message_id === message.message_id),
    );
    expect(prompt.reply_markup).toEqual({
      force_reply: true,
      selective: true,
      input_field_placeholder: "Your answer",
    });
    expect(prompt.text).toBe("Ada: Type your answer as a reply.");
    expect(prompt.entities).toContainEqual({
      type: "text_mention",
      offset: 0,
      length: 3,
      user: expect.objectContaining({ id: ADA.id }),
    });
    expect((await running.broker.get(record.id))?.status).toBe("pending");

    const reply = ada.sendText(chatId, "Blue-green on Friday", { replyTo: prompt.message_id });
    expect(await result(running, record.id)).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Blue-green on Friday"] } },
    });
    // Confirmed quietly: the summary edit says what was recorded, a reaction says it was read.
    expect(await reacted(running.tg, chatId, reply.message_id)).toEqual(["👍"]);
    expect(visible((await edited(running, chatId, message.message_id)).text)).toBe(
      "✅ Deploy: Blue-green on Friday — @ada",
    );
    expect(botMessages(running.tg, chatId).filter((m) => m.reply_to_message_id === reply.message_id)).toEqual(
      [],
    );
  });

  it("Skip declines the prompt and edits the message", async () => {
    const running = await start(mode);
    const ada = running.tg.user(ADA);
    const { record, message, chatId } = await ask(running, DEPLOY, String(ADA.id));

    const query = ada.press(chatId, message.message_id, "Skip");
    expect(await ada.waitForAnswer(query)).toMatchObject({ text: "Skipped.", show_alert: false });
    expect(await result(running, record.id)).toEqual({ status: "no_answer", reason: "skipped" });
    const summary = await edited(running, chatId, message.message_id);
    expect(visible(summary.text)).toBe("⏭ Deploy — skipped by @ada");
    expect(summary.reply_markup).toBeUndefined();
  });

  it("refuses a second user's tap in a group with an alert and changes nothing", async () => {
    const running = await start(mode);
    const ada = running.tg.user(ADA);
    const bob = running.tg.user(BOB);
    const { record, message, chatId } = await ask(running, DEPLOY, String(GROUP), {
      creator: { userId: String(ADA.id), displayName: "@ada" },
    });

    for (const label of ["Production", "Other…", "Skip"]) {
      const query = bob.press(chatId, message.message_id, label);
      expect(await bob.waitForAnswer(query)).toMatchObject({
        text: "This question is for @ada.",
        show_alert: true,
      });
    }
    const unchanged = running.tg.message(chatId, message.message_id);
    expect(unchanged?.edit_date).toBeUndefined();
    expect(buttons(unchanged)).toHaveLength(5);
    expect(running.tg.messages(chatId).filter((m) => m.from.is_bot)).toHaveLength(1);
    expect((await running.broker.get(record.id))?.status).toBe("pending");

    ada.press(chatId, message.message_id, "Canary");
    expect(await result(running, record.id)).toMatchObject({ status: "answered" });
  });

  it("tells a late tap why it is refused once the question was answered", async () => {
    const running = await start(mode);
    const ada = running.tg.user(ADA);
    const { record, message, chatId } = await ask(running, DEPLOY, String(ADA.id));
    const data =
      (message.reply_markup as { inline_keyboard: Array<Array<{ callback_data: string }>> })
        .inline_keyboard[1]?.[0]?.callback_data ?? "";

    ada.press(chatId, message.message_id, "Canary");
    await result(running, record.id);
    await edited(running, chatId, message.message_id);
    const late = ada.tap(chatId, message.message_id, data, { stale: true });
    expect(await ada.waitForAnswer(late)).toMatchObject({
      text: "This question was already answered by @ada.",
      show_alert: true,
    });
    expect(visible(running.tg.message(chatId, message.message_id)?.text)).toBe("✅ Deploy: Canary — @ada");
  });

  it("speaks German to a user whose Telegram is in German", async () => {
    const running = await start(mode);
    const ada = running.tg.user({ ...ADA, language_code: "de-DE" });
    const record = await running.broker.create(DEPLOY, {
      target: { channel: "telegram", conversation: String(ADA.id) },
      locale: "de",
    });
    const messageId = Number(record.deliveries[0]?.messageId);
    const message = running.tg.message(ADA.id, messageId);
    expect(buttons(message).slice(3)).toEqual([["Sonstiges…"], ["Überspringen"]]);
    expect(message?.text).toMatch(/Läuft ab um (\d\d\.\d\d\.\d{4} )?\d\d:\d\d UTC\.$/);

    const query = ada.press(ADA.id, messageId, "Production");
    expect(await ada.waitForAnswer(query)).toMatchObject({ text: "Erfasst: Production" });
  });

  it("keeps the host bot's own /start command and callback buttons working", async () => {
    const running = await start(mode, {
      after: (bot) => {
        bot.command("start", (ctx) => ctx.reply("Welcome to the host bot"));
        bot.callbackQuery("host:ping", (ctx) => ctx.answerCallbackQuery({ text: "pong" }));
        bot.on("message:text", (ctx) => ctx.reply(`host heard: ${ctx.message.text}`));
      },
    });
    const ada = running.tg.user(ADA);
    const { record, chatId } = await ask(running, DEPLOY, String(GROUP), {
      creator: { userId: String(ADA.id), displayName: "@ada" },
    });

    ada.sendText(chatId, "/start");
    await running.tg.waitUntil(() =>
      running.tg.messages(chatId).find((m) => m.text === "Welcome to the host bot"),
    );
    const hostMessage = await running.bot.api.sendMessage(chatId, "Ping?", {
      reply_markup: { inline_keyboard: [[{ text: "Ping", callback_data: "host:ping" }]] },
    });
    // In a group (privacy mode) the bot only gets what replies to it: Bob answers the host's message.
    const bob = running.tg.user(BOB);
    bob.sendText(chatId, "lunch?", { replyTo: hostMessage.message_id });
    await running.tg.waitUntil(() =>
      running.tg.messages(chatId).find((m) => m.text === "host heard: lunch?"),
    );
    const query = ada.press(chatId, hostMessage.message_id, "Ping");
    expect(await ada.waitForAnswer(query)).toMatchObject({ text: "pong" });
    expect((await running.broker.get(record.id))?.status).toBe("pending");
  });

  it("has one lifecycle on your bot: start once, and after stop() every update reaches your handlers", async () => {
    const running = await start(mode, {
      after: (bot) => bot.on("message:text", (ctx) => ctx.reply(`host heard: ${ctx.message.text}`)),
    });
    expect(running.telegram.describe).toBe("telegram (@ask_user_test_bot)");
    await expect(running.telegram.start(running.broker)).rejects.toThrow(/cannot be started when running/);
    const ada = running.tg.user(ADA);
    const { record, chatId } = await ask(running, DEPLOY, String(ADA.id));
    await running.telegram.stop();
    ada.sendText(chatId, "2");
    await running.tg.waitUntil(() => running.tg.messages(chatId).find((m) => m.text === "host heard: 2"));
    expect((await running.broker.get(record.id))?.status).toBe("pending");
  });
});
