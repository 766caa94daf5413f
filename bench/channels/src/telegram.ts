/**
 * Telegram over long polling: the product (`@ask-user/telegram/plugin`) and a bare grammY `Bot`, each on
 * its own fake Telegram, the person tapping in a private chat. Both poll with grammY's `bot.start`, so
 * both pay the same `getUpdates` round trip.
 */
import { join } from "node:path";
import { channelPlugin } from "@ask-user/telegram/plugin";
import { createFakeTelegram, type FakeTelegram } from "@ask-user/testkit/telegram";
import { Bot } from "grammy";
import { DEPLOY, startProduct, TAPPED } from "./product.ts";
import type { Platform, Round, Side } from "./side.ts";
import { openTapLog } from "./tap-log.ts";

const ADA = { id: 42, first_name: "Ada", username: "ada", language_code: "en" };
const polls = (tg: FakeTelegram) => tg.calls.filter((call) => call.method === "getUpdates").length;

/** The tap's round on a fake: the clock's end comes from `resolved`; settled once answered and polling again. */
function round(tg: FakeTelegram, messageId: number, resolved: Promise<number>, idle: () => Promise<void>) {
  const ada = tg.user(ADA);
  let queryId = "";
  let pollsAtTap = 0;
  const tapRound: Round = {
    tap() {
      pollsAtTap = polls(tg);
      queryId = ada.press(ADA.id, messageId, TAPPED);
    },
    resolved,
    async settle() {
      await ada.waitForAnswer(queryId);
      await idle();
      // The poll that carried the tap has returned; the bot handled it and polls again.
      await tg.waitUntil(() => polls(tg) > pollsAtTap);
    },
  };
  return tapRound;
}

async function productSide(dir: string): Promise<Side> {
  const tg = await createFakeTelegram({ botUsername: "ask_user_bench_bot" });
  const product = await startProduct(
    channelPlugin,
    { TELEGRAM_BOT_TOKEN: tg.token, TELEGRAM_API_ROOT: tg.apiRoot },
    join(dir, "telegram.db"),
  );
  const target = { channel: "telegram", conversation: String(ADA.id) };
  const creator = { channel: "telegram", userId: String(ADA.id), displayName: "Ada" };
  return {
    async next() {
      const asked = product.ask({ target, creator });
      const record = await asked.delivered;
      return round(tg, Number(record.deliveries[0]?.messageId), asked.resolved, () => product.broker.idle());
    },
    spans: product.spans,
    commits: () => product.store.stats(),
    async close() {
      await product.close();
      await tg.close();
    },
  };
}

async function bareSide(dir: string): Promise<Side> {
  const tg = await createFakeTelegram({ botUsername: "bare_bench_bot" });
  const log = openTapLog(join(dir, "telegram-bare.db"));
  const bot = new Bot(tg.token, { client: { apiRoot: tg.apiRoot } });
  const failures: unknown[] = [];
  bot.catch((error) => failures.push(error.error));
  let tapped: (() => void) | undefined;
  bot.on("callback_query:data", async (ctx) => {
    const query = ctx.callbackQuery;
    log.record(query.id, String(query.from.id), query.data);
    tapped?.();
    await ctx.answerCallbackQuery({ text: `Recorded: ${TAPPED}` });
  });
  await new Promise<void>((resolve, reject) => {
    bot.start({ allowed_updates: ["message", "callback_query"], onStart: () => resolve() }).catch(reject);
  });
  const [question] = DEPLOY.questions;
  const keyboard = [...(question?.options ?? []), { label: "Other…" }, { label: "Skip" }].map((o, i) => [
    { text: o.label, callback_data: `deploy:${i}` },
  ]);
  let taps = 0;
  return {
    async next() {
      const sent = await bot.api.sendMessage(ADA.id, `${question?.header}\n${question?.question}`, {
        reply_markup: { inline_keyboard: keyboard },
      });
      const resolved = new Promise<void>((resolve) => {
        tapped = resolve;
      }).then(() => performance.now());
      taps++;
      return round(tg, sent.message_id, resolved, async () => undefined);
    },
    spans: log.spans,
    commits() {
      const written = log.count(); // one row, one transaction per tap
      return { writes: written, transactions: written };
    },
    async close() {
      await bot.stop();
      await tg.close();
      const logged = log.count();
      log.close();
      if (failures.length > 0) throw new Error(`the bare bot failed: ${String(failures[0])}`);
      if (logged !== taps) throw new Error(`the bare bot wrote ${logged} taps of ${taps}`);
    },
  };
}

/** Both Telegram sides, each on its own fake; the SQLite files go to `dir`. */
export async function telegram(dir: string): Promise<Platform> {
  return {
    title: "Telegram (long polling)",
    sdk: "grammY Bot",
    product: await productSide(dir),
    bare: await bareSide(dir),
  };
}
