/** Shared harness for the Telegram tests: a fake per test, real grammY bots, everything closed afterwards. */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Bot, GrammyError, webhookCallback } from "grammy";
import { afterEach, expect } from "vitest";
import { createFakeTelegram, type FakeTelegram } from "../src/telegram/index.ts";

export const ADA = { id: 42, first_name: "Ada", username: "ada" };
export const GROUP = -1001234567890;
const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

export async function fake(): Promise<FakeTelegram> {
  const tg = await createFakeTelegram({ botUsername: "ask_user_test_bot" });
  cleanups.push(() => tg.close());
  return tg;
}

export function botFor(tg: FakeTelegram, token = tg.token): Bot {
  return new Bot(token, { client: { apiRoot: tg.apiRoot } });
}

/** Starts long polling and resolves once grammY is polling; the bot is stopped in afterEach. */
export async function startPolling(bot: Bot): Promise<void> {
  cleanups.push(async () => {
    if (bot.isRunning()) await bot.stop();
  });
  await new Promise<void>((resolve, reject) => {
    bot.start({ onStart: () => resolve() }).catch(reject);
  });
}

/** Serves grammY's webhook callback on 127.0.0.1; returns its URL. */
export async function serveWebhook(bot: Bot, secretToken: string): Promise<string> {
  const server = createServer(webhookCallback(bot, "http", { secretToken }));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/telegram`;
}

/** The Bot API error grammY throws for a refused call. */
export async function refusal(call: Promise<unknown>): Promise<GrammyError> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(GrammyError);
  return error as GrammyError;
}
