import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { webhookCallback } from "grammy";
import { describe, expect, it } from "vitest";
import { ADA, botFor, fake, GROUP, refusal, startPolling } from "./harness.ts";

const BOB = { id: 43, first_name: "Bob", last_name: "Builder" };

/** A polling bot that records the text of every message it receives. */
async function listening() {
  const tg = await fake();
  const bot = botFor(tg);
  const seen: string[] = [];
  bot.on("message:text", (ctx) => {
    seen.push(ctx.message.text);
  });
  await startPolling(bot);
  return { tg, bot, seen };
}

describe("privacy mode (on by default, as on Telegram)", () => {
  it("in a group, hands the bot only replies to it, commands for it and mentions of it", async () => {
    const { tg, bot, seen } = await listening();
    const ada = tg.user(ADA);
    const fromBot = await bot.api.sendMessage(GROUP, "Which branch?");
    const fromAda = ada.sendText(GROUP, "plain chatter");

    ada.sendText(GROUP, "1: 2");
    ada.sendText(GROUP, "a reply to Ada", { replyTo: fromAda.message_id });
    ada.sendText(GROUP, "/start@other_bot");
    ada.sendText(GROUP, "hey @other_bot_x");
    ada.sendText(GROUP, "main", { replyTo: fromBot.message_id });
    ada.sendText(GROUP, "/skip");
    ada.sendText(GROUP, "/skip@ASK_USER_TEST_BOT");
    ada.sendText(GROUP, "@ask_user_test_bot 2");
    ada.sendText(ADA.id, "anything in private");

    await tg.waitUntil(() => seen.length === 5);
    expect(seen).toEqual([
      "main",
      "/skip",
      "/skip@ASK_USER_TEST_BOT",
      "@ask_user_test_bot 2",
      "anything in private",
    ]);
    expect(tg.withheld.map((m) => m.text)).toEqual([
      "plain chatter",
      "1: 2",
      "a reply to Ada",
      "/start@other_bot",
      "hey @other_bot_x",
    ]);
    // People in the group still see every message.
    expect(tg.messages(GROUP).map((m) => m.text)).toContain("1: 2");
    expect(await bot.api.getMe()).toMatchObject({ can_read_all_group_messages: false });
  });

  it("hands the bot every group message once privacy mode is turned off", async () => {
    const { tg, bot, seen } = await listening();
    tg.setPrivacyMode(false);
    tg.user(ADA).sendText(GROUP, "1: 2");
    await tg.waitUntil(() => seen.length === 1);
    expect(seen).toEqual(["1: 2"]);
    expect(tg.withheld).toEqual([]);
    expect(await bot.api.getMe()).toMatchObject({ can_read_all_group_messages: true });
  });
});

describe("what users' messages carry", () => {
  it("sends mentions and commands as entities over the plain text", async () => {
    const tg = await fake();
    const bot = botFor(tg);
    const got: unknown[] = [];
    bot.on("message:text", (ctx) => {
      got.push({ text: ctx.message.text, entities: ctx.message.entities });
    });
    await startPolling(bot);

    tg.user(ADA).sendText(ADA.id, "@ask_user_test_bot 1: 2\n2: EU /skip");

    await tg.waitUntil(() => got.length === 1);
    expect(got).toEqual([
      {
        text: "@ask_user_test_bot 1: 2\n2: EU /skip",
        entities: [
          { type: "mention", offset: 0, length: 18 },
          { type: "bot_command", offset: 30, length: 5 },
        ],
      },
    ]);
  });

  it("getChat and getChatMember name a user the fake knows and refuse one it never saw", async () => {
    const tg = await fake();
    const { api } = botFor(tg);
    tg.user(BOB);
    tg.user(ADA);
    expect(await api.getChat(BOB.id)).toMatchObject({
      id: BOB.id,
      type: "private",
      first_name: "Bob",
      last_name: "Builder",
    });
    expect(await api.getChat(ADA.id)).toMatchObject({ first_name: "Ada", username: "ada" });
    const unknown = await refusal(api.getChat(999));
    expect(unknown.description).toBe("Bad Request: chat not found");
    expect(await api.getChatMember(GROUP, BOB.id)).toEqual({
      status: "member",
      user: { id: BOB.id, is_bot: false, first_name: "Bob", last_name: "Builder" },
    });
    expect((await refusal(api.getChatMember(GROUP, 999))).description).toBe("Bad Request: user not found");
  });
});

describe("webhook retries", () => {
  it("POSTs an update again, same update_id, when the bot answered it with a 5xx", async () => {
    const tg = await fake();
    const bot = botFor(tg);
    const handled: number[] = [];
    bot.on("message:text", (ctx) => {
      handled.push(ctx.update.update_id);
    });
    const handle = webhookCallback(bot, "http", { secretToken: "s3cret" });
    let requests = 0;
    const server = createServer((req, res) => {
      requests += 1;
      if (requests === 1) {
        res.writeHead(500).end();
        return;
      }
      void handle(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/telegram`;
      await bot.api.setWebhook(url, { secret_token: "s3cret" });

      const sent = tg.user(ADA).sendText(ADA.id, "deliver me");
      // The second delivery is recorded once its response is back, a moment after the bot handled it.
      await tg.waitUntil(() => handled.length === 1 && tg.deliveries.length === 2);
      expect(tg.deliveries.map((d) => [d.update_id, d.attempt, d.status])).toEqual([
        [1, 1, 500],
        [1, 2, 200],
      ]);
      expect(handled).toEqual([1]);
      expect(sent.text).toBe("deliver me");
    } finally {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    }
  });
});
