import { describe, expect, it } from "vitest";
import { ADA, botFor, fake, GROUP, refusal, serveWebhook, startPolling } from "./harness.ts";

describe("long polling with the real grammY", () => {
  it("delivers a user's message to a handler and shows the bot's reply in the chat", async () => {
    const tg = await fake();
    const bot = botFor(tg);
    bot.on("message:text", (ctx) => ctx.reply(`echo: ${ctx.message.text}`));
    await startPolling(bot);

    tg.user(ADA).sendText(ADA.id, "hello");

    const reply = await tg.waitUntil(() => tg.messages(ADA.id).find((m) => m.from.is_bot));
    expect(reply.text).toBe("echo: hello");
    expect(tg.messages(ADA.id).map((m) => [m.message_id, m.from.first_name, m.text])).toEqual([
      [1, "Ada", "hello"],
      [2, "Fake Test Bot", "echo: hello"],
    ]);
    const [a, b, c] = tg.calls.map((call) => call.method);
    expect([[a, b].sort(), c]).toEqual([["deleteWebhook", "getMe"], "getUpdates"]);
  });

  it("routes a button tap to bot.callbackQuery and records the answer", async () => {
    const tg = await fake();
    const bot = botFor(tg);
    bot.command("start", (ctx) =>
      ctx.reply("Deploy now?", {
        reply_markup: { inline_keyboard: [[{ text: "Yes", callback_data: "deploy:yes" }]] },
      }),
    );
    bot.callbackQuery("deploy:yes", async (ctx) => {
      await ctx.answerCallbackQuery({ text: "Deploying" });
      await ctx.editMessageText(`Deploying (asked by ${ctx.from.first_name})`);
    });
    await startPolling(bot);
    const ada = tg.user(ADA);

    ada.sendText(ADA.id, "/start");
    const prompt = await tg.waitUntil(() => tg.messages(ADA.id).find((m) => m.text === "Deploy now?"));
    const queryId = ada.press(ADA.id, prompt.message_id, "Yes");

    expect(await ada.waitForAnswer(queryId)).toEqual({
      callback_query_id: queryId,
      text: "Deploying",
      show_alert: false,
    });
    const edited = await tg.waitUntil(() => {
      const current = tg.message(ADA.id, prompt.message_id);
      return current?.edit_date !== undefined && current;
    });
    expect(edited.text).toBe("Deploying (asked by Ada)");
    expect(edited.reply_markup).toBeUndefined();
    expect(() => ada.press(ADA.id, prompt.message_id, "Yes")).toThrow(/no callback button "Yes"/);
  });

  it("confirms updates through the offset, so neither this bot nor a restarted one sees them twice", async () => {
    const tg = await fake();
    const seen: number[] = [];
    const first = botFor(tg);
    first.on("message", (ctx) => {
      seen.push(ctx.update.update_id);
    });
    await startPolling(first);
    const ada = tg.user(ADA);
    for (const text of ["one", "two", "three"]) ada.sendText(ADA.id, text);

    await tg.waitUntil(() => seen.length === 3);
    await first.stop();
    expect(tg.pendingUpdates()).toEqual([]);

    const restarted = botFor(tg);
    const seenAfterRestart: string[] = [];
    restarted.on("message:text", (ctx) => {
      seenAfterRestart.push(ctx.message.text);
    });
    await startPolling(restarted);
    ada.sendText(ADA.id, "four");
    await tg.waitUntil(() => seenAfterRestart.length === 1);
    await restarted.stop();

    expect(seen).toEqual([1, 2, 3]);
    expect(seenAfterRestart).toEqual(["four"]);
  });

  it("redelivers an update with the same update_id when asked to", async () => {
    const tg = await fake();
    const bot = botFor(tg);
    const seen: Array<[number, string]> = [];
    bot.on("message:text", (ctx) => {
      seen.push([ctx.update.update_id, ctx.message.text]);
    });
    await startPolling(bot);

    tg.user(ADA).sendText(ADA.id, "only once, please");
    await tg.waitUntil(() => seen.length === 1);
    tg.redeliver(seen[0]?.[0] ?? -1);
    await tg.waitUntil(() => seen.length === 2);

    expect(seen).toEqual([
      [1, "only once, please"],
      [1, "only once, please"],
    ]);
  });

  it("delivers a reply to a force_reply prompt in a forum topic with the full replied-to message", async () => {
    const tg = await fake();
    const bot = botFor(tg);
    const replies: unknown[] = [];
    bot.on("message:text", (ctx) => {
      const { text, message_thread_id, reply_to_message } = ctx.message;
      replies.push({ chat: ctx.chat.type, text, message_thread_id, repliedTo: reply_to_message?.text });
    });
    await startPolling(bot);
    const prompt = await bot.api.sendMessage(GROUP, "Which branch?", {
      message_thread_id: 7,
      reply_markup: { force_reply: true, selective: true, input_field_placeholder: "main" },
    });

    tg.user(ADA).sendText(GROUP, "release/2.0", { replyTo: prompt.message_id, threadId: 7 });

    await tg.waitUntil(() => replies.length === 1);
    expect(replies).toEqual([
      { chat: "supergroup", text: "release/2.0", message_thread_id: 7, repliedTo: "Which branch?" },
    ]);
    expect(tg.messages(GROUP)[0]).toMatchObject({
      message_thread_id: 7,
      reply_markup: { force_reply: true },
    });
    const tooLong = { force_reply: true as const, input_field_placeholder: "x".repeat(65) };
    const refused = await refusal(bot.api.sendMessage(GROUP, "Again?", { reply_markup: tooLong }));
    expect(refused.description).toContain("input_field_placeholder");
  });
});

describe("getUpdates long polling", () => {
  it("holds a long poll until an update arrives, and for at most 1 s when none does", async () => {
    const tg = await fake();
    const { api } = botFor(tg);

    let started = Date.now();
    expect(await api.getUpdates({ timeout: 30 })).toEqual([]);
    const emptyMs = Date.now() - started;
    expect(emptyMs).toBeGreaterThanOrEqual(900);
    expect(emptyMs).toBeLessThan(2000);

    started = Date.now();
    setTimeout(() => tg.user(ADA).sendText(ADA.id, "wake up"), 100);
    const updates = await api.getUpdates({ timeout: 30 });
    expect(Date.now() - started).toBeLessThan(900);
    expect(updates.map((u) => u.message?.text)).toEqual(["wake up"]);
  });

  it("answers a held long poll with no updates when the fake closes", async () => {
    const tg = await fake();
    const held = botFor(tg).api.getUpdates({ timeout: 30 });
    await tg.waitFor((call) => call.method === "getUpdates");
    await tg.close();
    expect(await held).toEqual([]);
    await expect(tg.waitFor(() => false, 50)).rejects.toThrow(/closed|timed out/);
  });
});

describe("webhook mode with the real grammY", () => {
  it("POSTs updates with the secret token to grammY's webhookCallback", async () => {
    const tg = await fake();
    const bot = botFor(tg);
    bot.on("message:text", (ctx) => ctx.reply(`got ${ctx.message.text}`));
    const url = await serveWebhook(bot, "s3cret-token_1");
    await bot.api.setWebhook(url, { secret_token: "s3cret-token_1" });

    tg.user(ADA).sendText(ADA.id, "via webhook");

    const reply = await tg.waitUntil(() => tg.messages(ADA.id).find((m) => m.from.is_bot));
    expect(reply.text).toBe("got via webhook");
    await tg.waitUntil(() => tg.deliveries.length > 0);
    expect(tg.deliveries).toMatchObject([{ update_id: 1, attempt: 1, status: 200 }]);
    tg.redeliver(1);
    await tg.waitUntil(() => tg.deliveries.length === 2);
    expect(
      tg
        .messages(ADA.id)
        .filter((m) => m.from.is_bot)
        .map((m) => m.text),
    ).toEqual(["got via webhook", "got via webhook"]);
    expect(tg.deliveries.map((d) => [d.update_id, d.status])).toEqual([
      [1, 200],
      [1, 200],
    ]);
    const conflict = await refusal(bot.api.getUpdates());
    expect(conflict.error_code).toBe(409);
    expect(conflict.description).toMatch(/^Conflict: can't use getUpdates method while webhook is active/);
  });

  it("gets 401 from grammY when the webhook secret is wrong, retries a bounded number of times, then drops", async () => {
    const tg = await fake();
    const bot = botFor(tg);
    const handled: string[] = [];
    bot.on("message:text", (ctx) => {
      handled.push(ctx.message.text);
    });
    const url = await serveWebhook(bot, "the-right-secret");
    await bot.api.setWebhook(url, { secret_token: "a-wrong-secret" });

    tg.user(ADA).sendText(ADA.id, "should never arrive");

    const [dropped] = await tg.waitUntil(() => tg.dropped.length > 0 && tg.dropped);
    expect(dropped?.update.message?.text).toBe("should never arrive");
    expect(tg.deliveries.map((d) => d.status)).toEqual([401, 401, 401]);
    expect(handled).toEqual([]);
    const info = await bot.api.getWebhookInfo();
    expect(info.last_error_message).toBe("Wrong response from the webhook: 401 Unauthorized");
    expect(info.pending_update_count).toBe(0);
  });

  it("refuses a webhook secret token with characters outside [A-Za-z0-9_-]", async () => {
    const tg = await fake();
    const error = await refusal(
      botFor(tg).api.setWebhook("http://127.0.0.1:9/hook", { secret_token: "bad:token" }),
    );
    expect(error.description).toBe("Bad Request: secret token contains unallowed characters");
  });
});
