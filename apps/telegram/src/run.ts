/** `runTelegram`: environment → grammY bot → channel, in long polling or webhook mode. */
import {
  type AskUserBroker,
  AskUserError,
  type AskUserLogger,
  type Channel,
  type Coordination,
  consoleLogger,
} from "@ask-user/core";
import { Bot, type Context } from "grammy";
import { createTelegramChannel } from "./channel.ts";
import { describeError } from "./errors.ts";
import { type HandlerServer, serveHandler, type WebhookHandler } from "./http-server.ts";
import {
  ALLOWED_UPDATES,
  WEBHOOK_DEFAULT_HOST,
  WEBHOOK_DEFAULT_PORT,
  WEBHOOK_PATH,
  WEBHOOK_SECRET_TOKEN_PATTERN,
} from "./limits.ts";
import { startPolling } from "./polling.ts";
import type { RetryOptions } from "./retry.ts";
import { createWebhookHandler } from "./webhook.ts";

/** A logger for the runner: core's (warn, error) plus an optional `info` for start-up lines (pino fits). */
export type TelegramLogger = AskUserLogger & {
  info?: (details: Record<string, unknown>, message: string) => void;
};

/** Options of {@link runTelegram}. */
export interface RunTelegramOptions {
  /**
   * `TELEGRAM_BOT_TOKEN` (required), `TELEGRAM_API_ROOT` (a self-hosted Bot API server or a test fake),
   * `TELEGRAM_WEBHOOK_URL` + `TELEGRAM_WEBHOOK_SECRET` (webhook mode, both or neither; a URL without a
   * path gets `/channels/telegram`), and with `listen` only `TELEGRAM_WEBHOOK_HOST` (default 127.0.0.1)
   * and `TELEGRAM_WEBHOOK_PORT` (default 8443).
   */
  env: Record<string, string | undefined>;
  broker: () => AskUserBroker;
  logger?: TelegramLogger;
  /** Retry bounds of the channel's Bot API calls (tests shorten them). */
  retry?: RetryOptions;
  /**
   * Your own handlers, registered on the bot after the channel and before the last handler, which
   * answers every button tap nobody handled (so no client keeps spinning).
   */
  handlers?: (bot: Bot) => void;
  /**
   * Shared with the other instances on the same store (the gateway passes the store): updates are
   * handled once across them, and only the lease holder long-polls. Without it, this process is alone.
   */
  coordination?: Coordination;
  /** This instance's name in the polling lease (default: a random id). */
  instanceId?: string;
  /** Long polling bounds (tests shorten them): the lease time, and the pause after an error. */
  polling?: { leaseTtlMs?: number; retryDelayMs?: number };
  /**
   * Webhook mode: also open a port of its own (`TELEGRAM_WEBHOOK_HOST`:`TELEGRAM_WEBHOOK_PORT`) serving
   * `webhook` at the webhook URL's path — what the standalone runner does. Default false: no port is
   * opened and the host mounts `webhook` (the gateway, at `/channels/telegram` on its one port).
   */
  listen?: boolean;
}

/** A running Telegram channel. */
export interface RunningTelegram {
  channel: Channel;
  /**
   * The grammY bot it runs. Handlers added to it now come after the one that answers unhandled taps,
   * so they get no callback queries: pass them as `handlers` instead.
   */
  bot: Bot;
  /** One banner line: `telegram (@my_bot, long polling)`. */
  describe: string;
  /**
   * Webhook mode: the handler of Telegram's requests (secret checked; 401 without it). Mount it where
   * `TELEGRAM_WEBHOOK_URL` points — the gateway serves it at `/channels/telegram`.
   */
  webhook?: WebhookHandler;
  stop(): Promise<void>;
}

interface Config {
  token: string;
  apiRoot?: string;
  webhook?: { url: URL; secret: string; host: string; port: number };
}

/** The webhook URL as registered: a URL given without a path gets {@link WEBHOOK_PATH}. */
function webhookUrl(text: string): URL {
  const url = new URL(text);
  if (url.pathname === "/") url.pathname = WEBHOOK_PATH;
  return url;
}

function configError(message: string): AskUserError {
  return new AskUserError("invalid_input", message);
}

/** Reads and checks the environment; throws one clear error for the first problem. */
export function readTelegramEnv(env: Record<string, string | undefined>): Config {
  const value = (key: string) => {
    const v = env[key]?.trim();
    return v === undefined || v === "" ? undefined : v;
  };
  const token = value("TELEGRAM_BOT_TOKEN");
  if (!token) throw configError("TELEGRAM_BOT_TOKEN is required (the token @BotFather gave you).");
  const config: Config = { token };
  const apiRoot = value("TELEGRAM_API_ROOT");
  if (apiRoot !== undefined) {
    if (!URL.canParse(apiRoot)) throw configError(`TELEGRAM_API_ROOT is not a URL: "${apiRoot}".`);
    config.apiRoot = apiRoot.replace(/\/+$/, "");
  }
  const url = value("TELEGRAM_WEBHOOK_URL");
  const secret = value("TELEGRAM_WEBHOOK_SECRET");
  if ((url === undefined) !== (secret === undefined)) {
    throw configError(
      "Set TELEGRAM_WEBHOOK_URL and TELEGRAM_WEBHOOK_SECRET together (webhook mode), or neither.",
    );
  }
  if (url !== undefined && secret !== undefined) {
    if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
      throw configError(`TELEGRAM_WEBHOOK_URL is not an http(s) URL: "${url}".`);
    if (!WEBHOOK_SECRET_TOKEN_PATTERN.test(secret))
      throw configError("TELEGRAM_WEBHOOK_SECRET must be 1-256 characters of A-Z, a-z, 0-9, _ and -.");
    const portText = value("TELEGRAM_WEBHOOK_PORT") ?? String(WEBHOOK_DEFAULT_PORT);
    const port = Number(portText);
    if (!/^\d+$/.test(portText) || port > 65_535)
      throw configError(`TELEGRAM_WEBHOOK_PORT is not a port number: "${portText}".`);
    const host = value("TELEGRAM_WEBHOOK_HOST") ?? WEBHOOK_DEFAULT_HOST;
    config.webhook = { url: webhookUrl(url), secret, host, port };
  }
  return config;
}

/**
 * The last handler: a tap on a button that nobody handled (another bot's or an old keyboard's
 * `callback_data`) is answered without text, so the person's client stops spinning.
 */
async function answerUnhandledTap(ctx: Context, logger: TelegramLogger): Promise<void> {
  try {
    await ctx.answerCallbackQuery();
  } catch (error) {
    logger.warn({ channel: "telegram", err: describeError(error) }, "could not answer a callback query");
  }
}

/**
 * Webhook mode: the handler, registered with `setWebhook` at `url` (with its secret and the updates the
 * channel needs), and served on a port of its own only with `listen`.
 */
async function startWebhook(
  bot: Bot,
  channel: Channel,
  config: NonNullable<Config["webhook"]>,
  options: RunTelegramOptions,
  logger: TelegramLogger,
): Promise<RunningTelegram> {
  const { url, secret, host, port } = config;
  const username = `@${bot.botInfo.username}`;
  const webhook = createWebhookHandler(bot, { secretToken: secret, logger });
  let server: HandlerServer | undefined;
  if (options.listen) {
    server = await serveHandler(webhook, { paths: [url.pathname], host, port, logger, name: "telegram" });
  } else {
    const ignored = ["TELEGRAM_WEBHOOK_HOST", "TELEGRAM_WEBHOOK_PORT"].filter((key) =>
      options.env[key]?.trim(),
    );
    if (ignored.length > 0)
      logger.warn(
        { channel: "telegram", ignored },
        `${ignored.join(" and ")} apply to the standalone runner only: here the webhook is served on the host's port at ${WEBHOOK_PATH}`,
      );
    if (url.pathname !== WEBHOOK_PATH && !url.pathname.startsWith(`${WEBHOOK_PATH}/`))
      logger.warn(
        { channel: "telegram", path: url.pathname },
        `TELEGRAM_WEBHOOK_URL's path is not ${WEBHOOK_PATH}, where the gateway serves the webhook: Telegram's requests reach it only if a proxy rewrites the path`,
      );
  }
  try {
    await bot.api.setWebhook(url.href, { secret_token: secret, allowed_updates: [...ALLOWED_UPDATES] });
  } catch (error) {
    await server?.close();
    throw error;
  }
  const where = `${url.origin}${url.pathname}`;
  const describe = server
    ? `telegram (${username}, webhook ${where} → ${server.address})`
    : `telegram (${username}, webhook ${where})`;
  logger.info?.(
    { channel: "telegram", bot: username, mode: "webhook", ...(server ? { listen: server.address } : {}) },
    "telegram ready",
  );
  return { channel, bot, describe, webhook, stop: async () => server?.close() };
}

/**
 * Builds a grammY bot from the environment, mounts the channel and starts it: long polling, or webhook
 * mode when `TELEGRAM_WEBHOOK_URL` and `TELEGRAM_WEBHOOK_SECRET` are set — then the returned `webhook`
 * handler serves Telegram's requests, mounted by the host (the gateway: `/channels/telegram` on its
 * port), or on a port of its own with `listen`. Resolves once updates flow. Taps nothing handled (not
 * the channel's, nor your `handlers`') are answered without text.
 *
 * @example
 * let askUser: AskUserBroker | undefined;
 * const telegram = await runTelegram({ env: process.env, broker: () => askUser as AskUserBroker });
 * askUser = createAskUser({ store, channels: [telegram.channel] });
 * console.log(telegram.describe); // telegram (@my_bot, long polling)
 */
export async function runTelegram(options: RunTelegramOptions): Promise<RunningTelegram> {
  const config = readTelegramEnv(options.env);
  const logger: TelegramLogger = options.logger ?? consoleLogger;
  const bot = new Bot(
    config.token,
    config.apiRoot === undefined ? {} : { client: { apiRoot: config.apiRoot } },
  );
  bot.catch((error) => {
    logger.error(
      { channel: "telegram", updateId: error.ctx.update.update_id, err: describeError(error.error) },
      "handler failed",
    );
  });
  const { channel } = createTelegramChannel({
    bot,
    broker: options.broker,
    logger,
    ...(options.coordination === undefined ? {} : { coordination: options.coordination }),
    ...(options.retry === undefined ? {} : { retry: options.retry }),
  });
  options.handlers?.(bot);
  bot.on("callback_query", (ctx) => answerUnhandledTap(ctx, logger));
  await bot.init();
  const username = `@${bot.botInfo.username}`;

  if (config.webhook) return startWebhook(bot, channel, config.webhook, options, logger);
  const polling = await startPolling(bot, {
    allowedUpdates: ALLOWED_UPDATES,
    logger,
    ...(options.coordination === undefined ? {} : { coordination: options.coordination }),
    ...(options.instanceId === undefined ? {} : { instanceId: options.instanceId }),
    ...(options.polling?.leaseTtlMs === undefined ? {} : { leaseTtlMs: options.polling.leaseTtlMs }),
    ...(options.polling?.retryDelayMs === undefined ? {} : { retryDelayMs: options.polling.retryDelayMs }),
  });
  logger.info?.({ channel: "telegram", bot: username, mode: "long polling" }, "telegram ready");
  return { channel, bot, describe: `telegram (${username}, long polling)`, stop: () => polling.stop() };
}
