import { createSlowStore } from "@ask-user/core/testing";
import { Bot } from "grammy";
import { describe, expect, it } from "vitest";
import { createWebhookHandler } from "../src/ingress/webhook.ts";
import {
  ADA,
  ask,
  botMessages,
  DEPLOY,
  edited,
  fake,
  memoryLogger,
  result,
  SECRET,
  start,
  visible,
} from "./harness.ts";

const WRITE_DELAY_MS = 11_000;

describe("a webhook update slower than Telegram waits for", () => {
  it("is answered 200 after 5 s, delivered once, and the tap runs once", async () => {
    const store = createSlowStore({ delayMs: WRITE_DELAY_MS, writes: ["compareAndSet"] });
    const running = await start("webhook", { store });
    const ada = running.tg.user(ADA);
    const { record, message, chatId } = await ask(running, DEPLOY, String(ADA.id));
    store.slow = true;

    const tapped = Date.now();
    const query = ada.press(chatId, message.message_id, "Production");
    const delivery = await running.tg.waitUntil(
      () => running.tg.deliveries.find((d) => d.at >= tapped),
      8000,
    );
    expect(delivery.status).toBe(200);
    expect(delivery.at - tapped).toBeGreaterThanOrEqual(4900);
    expect(delivery.at - tapped).toBeLessThan(7000);
    store.slow = false;

    expect(await result(running, record.id, 10_000)).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"] } },
    });
    expect(visible((await edited(running, chatId, message.message_id)).text)).toBe(
      "✅ Deploy: Production — @ada",
    );
    await new Promise((resolve) => setTimeout(resolve, 500)); // a second run would tell Ada it was answered
    expect(running.tg.deliveries.filter((d) => d.update_id === delivery.update_id)).toHaveLength(1);
    expect(running.tg.calls.filter((call) => call.method === "answerCallbackQuery")).toHaveLength(1);
    expect(running.tg.callbackAnswers).toEqual([{ callback_query_id: query, show_alert: false }]);
    expect(botMessages(running.tg, chatId, message.message_id)).toEqual([]);
    expect(running.logger.lines).toContainEqual(
      expect.stringContaining("a webhook update is slow: answered 200"),
    );
  }, 30_000);
});

describe("the webhook handler's background work", () => {
  /** A webhook request carrying a text message from Ada. */
  function request(updateId: number): Request {
    const update = {
      update_id: updateId,
      message: {
        message_id: updateId,
        date: 0,
        chat: { id: ADA.id, type: "private", first_name: "Ada" },
        from: { ...ADA, is_bot: false },
        text: `hi ${updateId}`,
      },
    };
    return new Request("http://127.0.0.1/telegram", {
      method: "POST",
      headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": SECRET },
      body: JSON.stringify(update),
    });
  }

  it("keeps at most the bound in the background, answers 503 beyond it, and reports failures either way", async () => {
    const tg = await fake();
    const bot = new Bot(tg.token, { client: { apiRoot: tg.apiRoot } });
    await bot.init();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    bot.on("message:text", async (ctx) => {
      if (ctx.message.text === "hi 1") await held;
      if (ctx.message.text !== "hi 3") throw new Error(`handler failed on ${ctx.message.text}`);
    });
    const logger = memoryLogger();
    const webhook = createWebhookHandler(bot, {
      secretToken: SECRET,
      logger,
      answerWithinMs: 100,
      backgroundMax: 1,
    });

    expect((await webhook(request(1))).status).toBe(200); // still running: answered, goes on
    const full = await webhook(request(2));
    expect([full.status, full.headers.get("retry-after")]).toEqual([503, "1"]);
    expect(await webhook.settled(50)).toBe(false);

    release();
    expect(await webhook.settled(1000)).toBe(true);
    expect((await webhook(request(3))).status).toBe(200);
    expect((await webhook(request(2))).status).toBe(500); // failed in time: Telegram delivers it again
    expect(logger.lines.filter((line) => line.startsWith("error"))).toEqual([
      expect.stringContaining("webhook update failed after it was answered 200"),
      expect.stringContaining("webhook update failed"),
    ]);
  });
});
