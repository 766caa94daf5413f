import type { AskUserBroker, Channel, Coordination } from "@ask-user/core";
import { createTextChannel } from "@ask-user/core";
import type { Logger } from "pino";

/** What a channel app needs from the gateway when it starts. */
export interface ChannelContext {
  env: Record<string, string | undefined>;
  /** The broker, for inbound events. Available once every channel has started. */
  broker: () => AskUserBroker;
  logger: Logger;
  /**
   * Shared with every instance over the same store: dedupe platform updates (`firstSeen`) and hold
   * connections allowed once per token (`keepLease`).
   */
  coordination: Coordination;
  /** This instance's name in leases and claims. */
  instanceId: string;
}

/** A started channel: its port for the broker, a line for the banner, and how to stop it. */
export interface RunningChannel {
  channel: Channel;
  describe: string;
  /**
   * The platform's inbound webhook, for a channel that receives over HTTP (Telegram's webhook, Slack's
   * Events API and interactivity): the gateway mounts it at `/channels/<name>` and everything under it,
   * on its own port. It authenticates its platform itself (secret token, signature). No channel opens a
   * port of its own inside the gateway.
   */
  webhook?: (request: Request) => Promise<Response>;
  stop(): Promise<void>;
}

/**
 * A channel the gateway can run. This is the extension point: each channel app (Telegram, Discord,
 * Slack) adds one entry to `CHANNEL_PLUGINS`; it runs when `enabled(env)` says its variables are present.
 */
export interface ChannelPlugin {
  name: string;
  /** The variables that turn it on, for the banner and docs. */
  variables: string[];
  enabled(env: Record<string, string | undefined>): boolean;
  start(context: ChannelContext): Promise<RunningChannel>;
}

/**
 * The generic text channel over HTTP: outgoing messages are POSTed as `{ conversation, text, replyTo? }`
 * to `ASK_USER_TEXT_WEBHOOK_URL` (the response may carry `{ messageId }`), and replies come in through
 * `POST /v1/channels/text/inbound`. Targets are `text:<conversation>`.
 */
export const textWebhookPlugin: ChannelPlugin = {
  name: "text",
  variables: ["ASK_USER_TEXT_WEBHOOK_URL"],
  enabled: (env) => Boolean(env.ASK_USER_TEXT_WEBHOOK_URL?.trim()),
  async start({ env, logger }) {
    const url = env.ASK_USER_TEXT_WEBHOOK_URL?.trim() ?? "";
    let counter = 0;
    const channel = createTextChannel({
      name: "text",
      async send(conversation, text, options) {
        const response = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ conversation, text, ...options }),
          signal: AbortSignal.timeout(10_000),
        });
        if (!response.ok) throw new Error(`text webhook answered ${response.status} ${response.statusText}`);
        const body = (await response.json().catch(() => undefined)) as { messageId?: unknown } | undefined;
        const id = body?.messageId;
        return typeof id === "string" || typeof id === "number"
          ? String(id)
          : `text-${Date.now()}-${++counter}`;
      },
    });
    logger.info({ channel: "text" }, "text channel ready");
    return { channel, describe: `text (webhook ${new URL(url).origin})`, stop: async () => undefined };
  },
};

/**
 * Telegram (grammY): `TELEGRAM_BOT_TOKEN`; long polling, or webhook mode with `TELEGRAM_WEBHOOK_URL`
 * (the gateway's public URL + `/channels/telegram`) and `TELEGRAM_WEBHOOK_SECRET`, served on the
 * gateway's port — see apps/telegram.
 */
export const telegramPlugin: ChannelPlugin = {
  name: "telegram",
  variables: ["TELEGRAM_BOT_TOKEN"],
  enabled: (env) => Boolean(env.TELEGRAM_BOT_TOKEN?.trim()),
  // Loaded on demand: a gateway without Telegram never loads grammY.
  start: async ({ env, broker, logger, coordination, instanceId }) =>
    (await import("@ask-user/telegram")).runTelegram({ env, broker, logger, coordination, instanceId }),
};

/**
 * Slack (Bolt): `SLACK_BOT_TOKEN` and `SLACK_APP_TOKEN` (Socket Mode) or `SLACK_SIGNING_SECRET` (HTTP:
 * Request URL = the gateway's public URL + `/channels/slack/events`, served on the gateway's port).
 */
export const slackPlugin: ChannelPlugin = {
  name: "slack",
  variables: ["SLACK_BOT_TOKEN", "SLACK_APP_TOKEN or SLACK_SIGNING_SECRET"],
  enabled: (env) => Boolean(env.SLACK_BOT_TOKEN?.trim()),
  start: async ({ env, broker, logger, coordination, instanceId }) =>
    (await import("@ask-user/slack")).runSlack({ env, broker, logger, coordination, instanceId }),
};

/** Discord (discord.js): `DISCORD_BOT_TOKEN`, optional `DISCORD_API_URL`. */
export const discordPlugin: ChannelPlugin = {
  name: "discord",
  variables: ["DISCORD_BOT_TOKEN"],
  enabled: (env) => Boolean(env.DISCORD_BOT_TOKEN?.trim()),
  start: async ({ env, broker, logger, coordination, instanceId }) =>
    (await import("@ask-user/discord")).runDiscord({ env, broker, logger, coordination, instanceId }),
};

/** Every channel the gateway knows. Channel apps add their plugin here as they land. */
export const CHANNEL_PLUGINS: ChannelPlugin[] = [
  telegramPlugin,
  discordPlugin,
  slackPlugin,
  textWebhookPlugin,
];
