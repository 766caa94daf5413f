/**
 * The channel's environment: which variables it reads ({@link TELEGRAM_VARIABLES}) and the checked
 * configuration ({@link readTelegramConfig}). Light: core only, no SDK.
 */
import {
  type ChannelEnv,
  type ChannelVariable,
  InvalidChannelConfigError,
  readVariable,
} from "@ask-user/core/channel";
import {
  WEBHOOK_DEFAULT_HOST,
  WEBHOOK_DEFAULT_PORT,
  WEBHOOK_PATH,
  WEBHOOK_SECRET_TOKEN_PATTERN,
} from "./limits.ts";

/** Webhook mode: Telegram POSTs updates to `url`, with `secret` in a header. */
export interface TelegramWebhookConfig {
  /** As registered with `setWebhook` (a URL given without a path gets `/channels/telegram`). */
  url: string;
  secret: string;
  /** Where a standalone host listens for it (the instance's `listen`); the gateway uses its own port. */
  host: string;
  port: number;
}

/** What {@link readTelegramConfig} returns: everything `create` needs. */
export interface TelegramConfig {
  token: string;
  /** A self-hosted Bot API server or a test fake, without a trailing `/`. */
  apiRoot?: string;
  /** Set: webhook mode. Unset: long polling. */
  webhook?: TelegramWebhookConfig;
  /** Long polling bounds for hosts and tests (not read from the environment). */
  polling?: { leaseTtlMs?: number; retryDelayMs?: number };
}

/** Every variable the channel reads, for banners, `--help` and the README. */
export const TELEGRAM_VARIABLES: readonly ChannelVariable[] = [
  { name: "TELEGRAM_BOT_TOKEN", description: "Bot token from @BotFather", required: true, secret: true },
  {
    name: "TELEGRAM_API_ROOT",
    description: "Bot API server (default https://api.telegram.org): a self-hosted one or a test fake",
  },
  {
    name: "TELEGRAM_WEBHOOK_URL",
    description: `Public URL Telegram POSTs updates to (webhook mode, with the secret; default: long polling); no path → ${WEBHOOK_PATH}`,
  },
  {
    name: "TELEGRAM_WEBHOOK_SECRET",
    description: "Webhook secret token, 1-256 of A-Z a-z 0-9 _ - (set with the URL)",
    secret: true,
  },
  {
    name: "TELEGRAM_WEBHOOK_HOST",
    description: `Where a standalone runner listens for the webhook (default ${WEBHOOK_DEFAULT_HOST}); not the gateway`,
  },
  {
    name: "TELEGRAM_WEBHOOK_PORT",
    description: `The standalone runner's webhook port (default ${WEBHOOK_DEFAULT_PORT}); not the gateway`,
  },
];

/** Reads and checks the channel's variables (trimmed); one `InvalidChannelConfigError` lists every problem. */
export function readTelegramConfig(env: ChannelEnv): TelegramConfig {
  const problems: string[] = [];
  const token = readVariable(env, "TELEGRAM_BOT_TOKEN");
  if (!token) problems.push("TELEGRAM_BOT_TOKEN is required (the token @BotFather gave you).");
  const config: TelegramConfig = { token: token ?? "" };

  const apiRoot = readVariable(env, "TELEGRAM_API_ROOT");
  if (apiRoot !== undefined) {
    if (URL.canParse(apiRoot)) config.apiRoot = apiRoot.replace(/\/+$/, "");
    else problems.push(`TELEGRAM_API_ROOT is not a URL: "${apiRoot}".`);
  }

  const url = readVariable(env, "TELEGRAM_WEBHOOK_URL");
  const secret = readVariable(env, "TELEGRAM_WEBHOOK_SECRET");
  if (url !== undefined || secret !== undefined) {
    if (url === undefined || secret === undefined)
      problems.push(
        "Set TELEGRAM_WEBHOOK_URL and TELEGRAM_WEBHOOK_SECRET together (webhook mode), or neither.",
      );
    const parsed = url !== undefined && URL.canParse(url) ? new URL(url) : undefined;
    if (url !== undefined && (!parsed || !/^https?:$/.test(parsed.protocol)))
      problems.push(`TELEGRAM_WEBHOOK_URL is not an http(s) URL: "${url}".`);
    if (secret !== undefined && !WEBHOOK_SECRET_TOKEN_PATTERN.test(secret))
      problems.push("TELEGRAM_WEBHOOK_SECRET must be 1-256 characters of A-Z, a-z, 0-9, _ and -.");
    const portText = readVariable(env, "TELEGRAM_WEBHOOK_PORT") ?? String(WEBHOOK_DEFAULT_PORT);
    const port = Number(portText);
    if (!/^\d+$/.test(portText) || port > 65_535)
      problems.push(`TELEGRAM_WEBHOOK_PORT is not a port number: "${portText}".`);
    const host = readVariable(env, "TELEGRAM_WEBHOOK_HOST") ?? WEBHOOK_DEFAULT_HOST;
    if (parsed && parsed.pathname === "/") parsed.pathname = WEBHOOK_PATH;
    if (parsed && secret !== undefined) config.webhook = { url: parsed.href, secret, host, port };
  }
  if (problems.length > 0) throw new InvalidChannelConfigError("telegram", problems);
  return config;
}
