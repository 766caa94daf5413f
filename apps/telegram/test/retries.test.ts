/**
 * The channel's Bot API calls under failure (outbound, so one inbound mode is enough): 429 and 5xx
 * retried by @grammyjs/auto-retry within bounds, a send whose connection failed never sent again, an
 * idempotent edit tried again, and every failure reaching core as a ChannelError.
 */
import { ChannelError } from "@ask-user/core/channel";
import { describe, expect, it } from "vitest";
import { ADA, ask, botMessages, DEPLOY, edited, result, start } from "./harness.ts";

const toAda = { target: { channel: "telegram", conversation: String(ADA.id) } };

describe("Bot API failures", () => {
  it("retries a 5xx at most 3 times in all, then ends the question undeliverable with Telegram's words", async () => {
    const running = await start("manual");
    running.tg.failNext("sendMessage", { status: 502 });
    const retried = await ask(running, DEPLOY, String(ADA.id));
    expect(retried.record.status).toBe("pending");

    for (let i = 0; i < 3; i++) running.tg.failNext("sendMessage", { status: 500 });
    const before = running.tg.calls.length;
    const started = Date.now();
    const record = await running.broker.create(DEPLOY, toAda);
    // auto-retry pauses 3 s, 6 s, and 12 s more after the last try: bounded, under 30 s.
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(record.status).toBe("undeliverable");
    expect(record.error).toBe("ChannelError: Telegram failed sendMessage: 500 Internal Server Error");
    expect(running.tg.calls.slice(before).filter((call) => call.method === "sendMessage")).toHaveLength(3);
    expect(await result(running, record.id)).toEqual({ status: "no_answer", reason: "undeliverable" });

    const nowhere = await running.broker.create(DEPLOY, {
      target: { channel: "telegram", conversation: "@somewhere" },
    });
    expect(nowhere.status).toBe("undeliverable");
    expect(nowhere.error).toMatch(/"@somewhere" is not a Telegram conversation/);
  }, 40_000);

  it("does not send a prompt again when its connection failed: one sendMessage, the question undeliverable", async () => {
    const running = await start("polling");
    const held = running.tg.hold("sendMessage");
    const created = running.broker.create(DEPLOY, toAda);
    await running.tg.waitUntil(() => held.calls.length === 1);
    held.drop();
    const record = await created;
    expect(record.status).toBe("undeliverable");
    expect(record.error).toBe(
      "ChannelError: Could not reach Telegram for sendMessage: Network request for 'sendMessage' failed!",
    );
    await new Promise((resolve) => setTimeout(resolve, 1500)); // longer than a network retry's pause
    expect(running.tg.calls.filter((call) => call.method === "sendMessage")).toHaveLength(1);
    expect(botMessages(running.tg, ADA.id)).toEqual([]);
  });

  it("tries an edit again after its connection failed, and the message shows the summary", async () => {
    const running = await start("polling");
    const { record, message, chatId } = await ask(running, DEPLOY, String(ADA.id));
    const held = running.tg.hold("editMessageText");
    await running.broker.cancel(record.id);
    await running.tg.waitUntil(() => held.calls.length === 1);
    held.drop();
    const summary = await edited(running, chatId, message.message_id);
    expect(summary.text).toMatch(/^✖ .*ancelled$/); // core's summary of a cancelled question
    expect(summary.reply_markup).toBeUndefined();
    expect(running.tg.calls.filter((call) => call.method === "editMessageText")).toHaveLength(2);
  });

  it("fails at once on a 429 that asks for more than 30 s, as rate_limited with its retry-after", async () => {
    const running = await start("polling");
    running.tg.failNext("sendMessage", { status: 429, retry_after: 31 });
    const notice = running.telegram.notify({
      conversation: String(ADA.id),
      text: "Hi",
      locale: "en",
    });
    await expect(notice).rejects.toThrow(ChannelError);
    await expect(notice).rejects.toMatchObject({
      failure: "rate_limited",
      method: "sendMessage",
      status: 429,
      retryAfterMs: 31_000,
      message: "Telegram rate-limited sendMessage: 429 Too Many Requests: retry after 31",
    });
    expect(running.tg.calls.filter((call) => call.method === "sendMessage")).toHaveLength(1);
  });

  it("reports a refusal as refused, with Telegram's code and words", async () => {
    const running = await start("polling");
    running.tg.failNext("sendMessage", {
      status: 403,
      description: "Forbidden: bot was blocked by the user",
    });
    await expect(
      running.telegram.notify({ conversation: String(ADA.id), text: "Hi", locale: "en" }),
    ).rejects.toMatchObject({
      name: "ChannelError",
      code: "channel_refused",
      failure: "refused",
      status: 403,
      message: "Telegram refused sendMessage: 403 Forbidden: bot was blocked by the user",
    });
  });
});
