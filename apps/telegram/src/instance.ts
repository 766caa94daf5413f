/**
 * The plugin's SDK-bound half, loaded by `channelPlugin.create`: a grammY bot built from the config, the
 * channel mounted on it, and inbound started by `initialize(broker)` — long polling under the shared
 * lease, or the webhook registered and served by `handleWebhook`.
 */
import {
  type AskUserBroker,
  AskUserError,
  type ChannelInstance,
  type ChannelListen,
  type ChannelLogger,
  type ChannelPluginContext,
  describeError,
} from "@ask-user/core";
import { Bot, type Context } from "grammy";
import { createChannelApi } from "./api.ts";
import { createTelegramChannel } from "./channel.ts";
import type { TelegramConfig, TelegramWebhookConfig } from "./config.ts";
import { toChannelError } from "./errors.ts";
import { ALLOWED_UPDATES, WEBHOOK_NOT_READY_RETRY_AFTER_SECONDS, WEBHOOK_STOP_WAIT_MS } from "./limits.ts";
import { type Polling, startPolling } from "./polling.ts";
import { createWebhookHandler, type WebhookHandler } from "./webhook.ts";

/** How long `create` waits for `getMe` (the token check) before it fails as unreachable. */
const GET_ME_TIMEOUT_MS = 15_000;

/**
 * The last handler: a tap on a button that nobody handled (another bot's or an old keyboard's
 * `callback_data`) is answered without text, so the person's client stops spinning.
 */
async function answerUnhandledTap(ctx: Context, logger: ChannelLogger): Promise<void> {
  try {
    await ctx.answerCallbackQuery();
  } catch (error) {
    logger.warn({ channel: "telegram", err: describeError(error) }, "could not answer a callback query");
  }
}

/** The answer to a webhook request while inbound is not running: Telegram delivers it again later. */
function notReady(): Response {
  return Response.json(
    { ok: false, error: "The Telegram channel is not receiving updates yet; try again." },
    { status: 503, headers: { "retry-after": String(WEBHOOK_NOT_READY_RETRY_AFTER_SECONDS) } },
  );
}

function listenOf(webhook: TelegramWebhookConfig): ChannelListen {
  return { host: webhook.host, port: webhook.port, paths: [new URL(webhook.url).pathname] };
}

/** The banner line: the webhook URL without its query (it may carry a credential of the proxy's). */
function describeInstance(username: string, webhook: TelegramWebhookConfig | undefined): string {
  if (!webhook) return `telegram (${username}, long polling)`;
  const url = new URL(webhook.url);
  return `telegram (${username}, webhook ${url.origin}${url.pathname})`;
}

/** A created Telegram channel: core's `ChannelInstance`, plus the grammY bot it runs. */
export interface TelegramInstance extends ChannelInstance {
  /**
   * The bot, with the channel attached by `initialize`. Handlers added to it after `initialize` come
   * after the one that answers every tap nobody handled, so they get no callback queries.
   */
  readonly bot: Bot;
}

/**
 * Builds the bot (its `getMe` included, for the banner: one try within 15 s, failing as a `ChannelError`
 * — `refused` for a wrong token, `unreachable` when Telegram can't be reached — so a host can say why
 * and try again) and the channel; nothing is received until `initialize`. Webhook mode: `handleWebhook`
 * answers 503 with `Retry-After` until then (and after `stop`), and `listen` says where a standalone host
 * serves it.
 *
 * @example
 * const instance = await create({ config, logger, coordination: store, instanceId: "gw-1" });
 * const askUser = createAskUser({ store, channels: [instance.channel] });
 * await instance.initialize(askUser);
 */
export async function create(context: ChannelPluginContext<TelegramConfig>): Promise<TelegramInstance> {
  const { config, logger, coordination, instanceId } = context;
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
  try {
    // One bounded getMe, not `bot.init()`: grammY retries that one silently for as long as Telegram
    // can't be reached (pauses growing to 20 minutes), so the host would never hear why.
    const signal = AbortSignal.timeout(GET_ME_TIMEOUT_MS) as Parameters<typeof bot.api.getMe>[0];
    bot.botInfo = await bot.api.getMe(signal);
  } catch (error) {
    throw toChannelError(error, "getMe");
  }
  const username = `@${bot.botInfo.username}`;
  const webhook = config.webhook;
  const telegram = createTelegramChannel({
    bot,
    logger,
    coordination,
    ingress: webhook ? "webhook" : "polling",
  });

  let state: "created" | "initializing" | "running" | "stopped" = "created";
  let polling: Polling | undefined;
  let handler: WebhookHandler | undefined;

  const initialize = async (broker: AskUserBroker): Promise<void> => {
    if (state !== "created")
      throw new AskUserError("invalid_input", `The Telegram channel cannot be initialized when ${state}.`);
    state = "initializing";
    telegram.attach(broker);
    bot.on("callback_query", (ctx) => answerUnhandledTap(ctx, logger));
    if (webhook) {
      // Served from now on: updates Telegram sends right after setWebhook are not bounced.
      handler = createWebhookHandler(bot, { secretToken: webhook.secret, logger });
      const api = createChannelApi(config.token, bot.api.options);
      try {
        await api.setWebhook(webhook.url, {
          secret_token: webhook.secret,
          allowed_updates: [...ALLOWED_UPDATES],
        });
      } catch (error) {
        throw toChannelError(error, "setWebhook");
      }
    } else {
      polling = await startPolling(bot, {
        allowedUpdates: ALLOWED_UPDATES,
        logger,
        coordination,
        instanceId,
        ...(config.polling?.leaseTtlMs === undefined ? {} : { leaseTtlMs: config.polling.leaseTtlMs }),
        ...(config.polling?.retryDelayMs === undefined ? {} : { retryDelayMs: config.polling.retryDelayMs }),
      });
    }
    if (state !== "initializing") {
      await polling?.stop(); // stop() came while polling started
      return;
    }
    state = "running";
    logger.info?.(
      { channel: "telegram", bot: username, mode: webhook ? "webhook" : "long polling" },
      "telegram ready",
    );
  };

  return {
    bot,
    channel: telegram.channel,
    describe: describeInstance(username, webhook),
    ...(webhook
      ? {
          listen: listenOf(webhook),
          handleWebhook: async (request: Request) =>
            state !== "stopped" && handler ? handler(request) : notReady(),
        }
      : {}),
    initialize,
    async stop() {
      state = "stopped";
      await polling?.stop();
      polling = undefined;
      // Webhook updates answered 200 while still being handled finish first (bounded).
      if (handler && !(await handler.settled(WEBHOOK_STOP_WAIT_MS))) {
        logger.warn(
          { channel: "telegram", afterMs: WEBHOOK_STOP_WAIT_MS },
          "stopped with webhook updates still being handled",
        );
      }
    },
  };
}
