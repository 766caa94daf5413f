/** Shared harness: a fake Telegram per test, the real grammY bot with the channel mounted, a broker. */
import { createAskUser, createMemoryStore, type QuestionStore } from "@ask-user/core";
import type {
  AskUserBroker,
  AskUserLogger,
  AskUserResult,
  Clock,
  Coordination,
  QuestionRecord,
} from "@ask-user/core/channel";
import { createFakeTelegram, type FakeMessage, type FakeTelegram } from "@ask-user/testkit/telegram";
import { Bot } from "grammy";
import { afterEach, expect } from "vitest";
import { createTelegramChannel, type TelegramChannel } from "../src/adapter.ts";
import { createWebhookHandler } from "../src/ingress/webhook.ts";
import { serve } from "./serve.ts";

/** How updates reach the bot: grammY's long polling, its webhook, or `handleTogether` (tests call it). */
export type Mode = "polling" | "webhook" | "manual";
export const MODES: Mode[] = ["polling", "webhook"];
/** The update offset of each bot in manual mode. */
const offsets = new WeakMap<Bot, number>();

export const ADA = { id: 42, first_name: "Ada", username: "ada", language_code: "en" };
export const BOB = { id: 43, first_name: "Bob", username: "bob_b", language_code: "en" };
export const GROUP = -1001234567890;
export const SECRET = "test-secret_123";

export { DEPLOY, ROLLOUT } from "./fixtures.ts";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Registers work for afterEach (run in reverse order). */
export function onCleanup(cleanup: () => Promise<void>): void {
  cleanups.push(cleanup);
}

export async function fake(): Promise<FakeTelegram> {
  const tg = await createFakeTelegram({ botUsername: "ask_user_test_bot" });
  onCleanup(() => tg.close());
  return tg;
}

/** A logger that keeps lines for assertions instead of printing them. */
export function memoryLogger(): AskUserLogger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    warn: (details, message) => lines.push(`warn ${message} ${JSON.stringify(details)}`),
    error: (details, message) => lines.push(`error ${message} ${JSON.stringify(details)}`),
  };
}

export interface Running {
  tg: FakeTelegram;
  bot: Bot;
  broker: AskUserBroker;
  telegram: TelegramChannel;
  store: QuestionStore;
  logger: ReturnType<typeof memoryLogger>;
  /** Callback queries whose handling (the channel's and the host's) has finished. */
  handledQueries: ReadonlySet<string>;
  /** The webhook URL (webhook mode). */
  webhookUrl?: string;
  /** Stops the bot (polling) or the webhook server, and closes the broker. */
  stop(): Promise<void>;
}

export interface StartOptions {
  tg?: FakeTelegram;
  store?: QuestionStore;
  clock?: Clock;
  answerers?: "creator" | "conversation";
  defaultLocale?: string;
  /** Shared with other instances (dedupe across them); default: none, this process alone. */
  coordination?: Coordination;
  /** Host handlers registered before the channel is attached. */
  before?: (bot: Bot) => void;
  /** Host handlers registered after the channel is attached. */
  after?: (bot: Bot) => void;
}

/** A host bot with the channel mounted, running in `mode` against the fake. */
export async function start(mode: Mode, options: StartOptions = {}): Promise<Running> {
  const tg = options.tg ?? (await fake());
  const store = options.store ?? createMemoryStore();
  const logger = memoryLogger();
  const bot = new Bot(tg.token, { client: { apiRoot: tg.apiRoot } });
  const handledQueries = new Set<string>();
  bot.use(async (ctx, next) => {
    try {
      await next();
    } finally {
      if (ctx.callbackQuery) handledQueries.add(ctx.callbackQuery.id);
    }
  });
  options.before?.(bot);
  const telegram = createTelegramChannel({
    bot,
    logger,
    ...(mode === "webhook" ? { ingress: "webhook" as const } : {}),
    ...(options.coordination === undefined ? {} : { coordination: options.coordination }),
    ...(options.defaultLocale === undefined ? {} : { defaultLocale: options.defaultLocale }),
  });
  const broker = createAskUser({
    store,
    channels: [telegram],
    logger,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.answerers ? { answerers: options.answerers } : {}),
  });
  await telegram.start(broker);
  options.after?.(bot);
  const running: Running = {
    tg,
    bot,
    broker,
    telegram,
    store,
    logger,
    handledQueries,
    stop: async () => undefined,
  };
  let stopUpdates: () => Promise<void>;
  if (mode === "polling") {
    await new Promise<void>((resolve, reject) => {
      bot.start({ onStart: () => resolve() }).catch(reject);
    });
    stopUpdates = async () => {
      if (bot.isRunning()) await bot.stop();
    };
  } else if (mode === "manual") {
    await bot.init();
    offsets.set(bot, 0);
    stopUpdates = async () => undefined;
  } else {
    await bot.init();
    const webhook = createWebhookHandler(bot, { secretToken: SECRET, logger });
    const server = await serve(webhook, ["/telegram"]);
    running.webhookUrl = `${server.origin}/telegram`;
    await bot.api.setWebhook(running.webhookUrl, { secret_token: SECRET });
    stopUpdates = async () => {
      await server.close();
      await webhook.settled();
    };
  }
  let stopped = false;
  running.stop = async () => {
    if (stopped) return;
    stopped = true;
    await stopUpdates();
    await running.broker.close();
    // Nothing in these scenarios is a failure worth an error line: a crash in a handler would be.
    expect(logger.lines.filter((line) => line.startsWith("error"))).toEqual([]);
  };
  onCleanup(running.stop);
  return running;
}

/**
 * Manual mode: fetches the updates queued since the last call (`getUpdates` on the fake) and hands them
 * to the bot all at once, so their handlers run concurrently (polling and the fake's webhook go one by
 * one; a real webhook with `max_connections` > 1 does not).
 */
export async function handleTogether(running: Running): Promise<number> {
  const offset = offsets.get(running.bot);
  if (offset === undefined) throw new Error("handleTogether needs a bot started in manual mode");
  const updates = await running.bot.api.getUpdates({ offset, timeout: 0 });
  const last = updates.at(-1);
  if (last) offsets.set(running.bot, last.update_id + 1);
  await Promise.all(updates.map((update) => running.bot.handleUpdate(update)));
  return updates.length;
}

/** Creates a question and returns its record and the message the fake shows for it. */
export async function ask(
  running: Running,
  input: unknown,
  conversation: string,
  extra: { creator?: { userId: string; displayName?: string } } = {},
): Promise<{ record: QuestionRecord; message: FakeMessage; chatId: number }> {
  const record = await running.broker.create(input, {
    target: { channel: "telegram", conversation },
    ...(extra.creator ? { creator: { channel: "telegram", ...extra.creator } } : {}),
  });
  const delivery = record.deliveries[0];
  if (!delivery) throw new Error(`not delivered: ${record.status} ${record.error ?? ""}`);
  const chatId = Number(conversation.split(":")[0]);
  const message = running.tg.message(chatId, Number(delivery.messageId));
  if (!message) throw new Error("the fake has no such message");
  return { record, message, chatId };
}

/** The agent's result, bounded in time. */
export function result(running: Running, id: string, timeoutMs = 3000): Promise<AskUserResult> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no result for ${id} after ${timeoutMs} ms`)), timeoutMs);
    running.broker.wait(id).then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** The message once it was edited to its summary (an edit that took the keyboard away). */
export function edited(running: Running, chatId: number, messageId: number): Promise<FakeMessage> {
  return running.tg.waitUntil(() => {
    const message = running.tg.message(chatId, messageId);
    return message?.edit_date !== undefined && message.reply_markup === undefined && message;
  });
}

/** Button labels of a message, row by row. */
export function buttons(message: FakeMessage | undefined): string[][] {
  const markup = message?.reply_markup as { inline_keyboard?: Array<Array<{ text: string }>> } | undefined;
  return (markup?.inline_keyboard ?? []).map((row) => row.map((button) => button.text));
}

/** The bot's messages in a chat after `afterId`. */
export function botMessages(tg: FakeTelegram, chatId: number, afterId = 0): FakeMessage[] {
  return tg.messages(chatId).filter((m) => m.from.is_bot && m.message_id > afterId);
}

/** Text as a person reads it: the invisible word joiners that defuse `@mentions` left out. */
export function visible(text: string | undefined): string | undefined {
  return text?.replaceAll("\u2060", "");
}

/** The bot's reaction on a person's message (a quiet confirmation), once it is there. */
export function reacted(tg: FakeTelegram, chatId: number, messageId: number): Promise<string[]> {
  return tg.waitUntil(() => tg.message(chatId, messageId)?.reactions);
}

/**
 * Taps the button labelled `label` on a message and waits for the tap's answer (and, for a form, for the
 * message to show what the tap did): what a person sees in the toast.
 */
export async function tapAndSee(
  running: Running,
  user: ReturnType<FakeTelegram["user"]>,
  chatId: number,
  messageId: number,
  label: string,
): Promise<{ toast: string | undefined; alert: boolean }> {
  const query = user.press(chatId, messageId, label);
  const answer = await user.waitForAnswer(query);
  await running.tg.waitUntil(() => running.handledQueries.has(query)); // the tap's own edit
  await running.broker.idle(); // the refresh the tap caused
  return { toast: answer.text, alert: answer.show_alert };
}
