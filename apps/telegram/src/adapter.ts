/**
 * The Telegram channel: core's channel port over a grammY bot (send, edit, notify) with one lifecycle,
 * `start(broker)` / `stop()` — mounted on a bot the host already has ({@link createTelegramChannel}), or
 * built from the plugin's config ({@link create}, loaded by `channelPlugin.create`), which also starts
 * receiving: long polling under the shared lease, or the webhook registered and served by `handleWebhook`.
 */
import {
  type AskUserBroker,
  AskUserError,
  type AskUserLogger,
  type ChannelAdapter,
  type ChannelIngress,
  type ChannelListen,
  type ChannelLogger,
  type ChannelPluginContext,
  type Coordination,
  consoleLogger,
  describeError,
} from "@ask-user/core/channel";
import { Api, Bot, type Context } from "grammy";
import type { TelegramConfig, TelegramWebhookConfig } from "./config.ts";
import { parseConversation } from "./conversation.ts";
import { toChannelError } from "./errors.ts";
import { createInbound } from "./inbound.ts";
import { type Polling, startPolling } from "./ingress/polling.ts";
import { createWebhookHandler, type WebhookHandler } from "./ingress/webhook.ts";
import {
  ALLOWED_UPDATES,
  BUTTON_LABEL_MAX_CHARS,
  INLINE_KEYBOARD_MAX_BUTTONS,
  WEBHOOK_NOT_READY_RETRY_AFTER_SECONDS,
  WEBHOOK_STOP_WAIT_MS,
} from "./limits.ts";
import { lookUpName } from "./names.ts";
import { sendNotice } from "./notices.ts";
import { createChannelApi, createPrompts } from "./outbound.ts";

/** How long `create` waits for `getMe` (the token check) before it fails as unreachable. */
const GET_ME_TIMEOUT_MS = 15_000;

/** Options of {@link createTelegramChannel}. */
export interface TelegramChannelOptions<C extends Context = Context> {
  /** The host's grammY bot; `start` adds one middleware to it and leaves the rest alone. */
  bot: Bot<C>;
  /** Where handler failures are reported (default: stderr). */
  logger?: AskUserLogger;
  /**
   * Shared with the other instances on the same store (every `QuestionStore` is one): each update is
   * handled once across all of them. Without it, redeliveries are dropped by this process alone.
   */
  coordination?: Coordination;
  /** Locale for users without a supported `language_code` (default: the broker's locale). */
  defaultLocale?: string;
  /** The channel's name in targets (default `"telegram"`). */
  name?: string;
  /** How the bot receives updates, for `capabilities.ingress` (default `"polling"`, grammY's `bot.start`). */
  ingress?: Extract<ChannelIngress, "polling" | "webhook">;
}

/** The channel: core's `Channel` port (pass it to `createAskUser({ channels })`) and its lifecycle. */
export interface TelegramChannel extends ChannelAdapter {
  readonly name: string;
}

/**
 * Mounts ask-user on an existing grammY bot: pass the channel to the broker, then `start(broker)` adds
 * the channel's middleware to the bot (`bot.use`) — handlers the bot had before come first and see
 * every update; handlers added afterwards get what the channel passes on. `stop()` lets every update
 * pass on from then; the bot itself is yours to run and stop. A lone single-select question arrives
 * with one button per option; a form shows one question at a time over buttons that stage the shared
 * draft (✓), ‹ Back / Next ›, Skip and Send. The channel's Bot API calls go through its own client (the
 * bot's options plus bounded retries); `bot.api` is left as it is.
 *
 * @example
 * const bot = new Bot(process.env.TELEGRAM_BOT_TOKEN ?? "");
 * const telegram = createTelegramChannel({ bot });
 * const askUser = createAskUser({ store: createMemoryStore(), channels: [telegram] });
 * await telegram.start(askUser);
 * void bot.start();
 */
export function createTelegramChannel<C extends Context>(
  options: TelegramChannelOptions<C>,
): TelegramChannel {
  const { bot, coordination, defaultLocale } = options;
  const name = options.name ?? "telegram";
  const logger = options.logger ?? consoleLogger;
  const api = createChannelApi(bot.token, bot.api.options);
  // Names are looked up while a question is created: one try, no retries that would hold it up.
  const lookup = new Api(bot.token, bot.api.options);
  const { messages, showForm, ...prompts } = createPrompts(api);
  let state: "created" | "running" | "stopped" = "created";

  return {
    name,
    get describe() {
      return bot.isInited() ? `${name} (@${bot.botInfo.username})` : name;
    },
    capabilities: {
      buttons: true,
      edit: true,
      privateNotices: false,
      maxButtons: INLINE_KEYBOARD_MAX_BUTTONS,
      maxButtonLabel: BUTTON_LABEL_MAX_CHARS,
      ingress: options.ingress ?? "polling",
    },
    // Private chats have positive ids; groups, supergroups and channels negative ones.
    isDirect: (conversation) => (parseConversation(conversation)?.chatId ?? 0) > 0,
    ...prompts,
    notify: (notice) => sendNotice({ api, logger, name }, notice),
    displayName: (userId, conversation) => lookUpName(lookup, userId, conversation),
    async start(broker) {
      if (state !== "created")
        throw new AskUserError("invalid_input", `The Telegram channel cannot be started when ${state}.`);
      state = "running";
      const inbound = { name, api, logger, broker, messages, showForm, running: () => state === "running" };
      bot.use(
        createInbound<C>({
          ...inbound,
          ...(coordination === undefined ? {} : { coordination }),
          ...(defaultLocale === undefined ? {} : { defaultLocale }),
        }),
      );
    },
    async stop() {
      state = "stopped";
    },
  };
}

/** A Telegram channel built from the plugin's config, with the grammY bot it runs. */
export interface TelegramAdapter extends TelegramChannel {
  /**
   * The bot. Handlers added to it after `start` come after the one that answers every tap nobody
   * handled, so they get no callback queries.
   */
  readonly bot: Bot;
}

/**
 * The last handler: a tap on a button that nobody handled (another bot's or an old keyboard's
 * `callback_data`) is answered without text, so the person's client stops spinning.
 */
async function answerUnhandledTap(ctx: Context, logger: ChannelLogger): Promise<void> {
  await ctx.answerCallbackQuery().catch((error: unknown) => {
    logger.warn({ channel: "telegram", err: describeError(error) }, "could not answer a callback query");
  });
}

/** The answer to a webhook request while inbound is not running: Telegram delivers it again later. */
function notReady(): Response {
  return Response.json(
    { ok: false, error: "The Telegram channel is not receiving updates yet; try again." },
    { status: 503, headers: { "retry-after": String(WEBHOOK_NOT_READY_RETRY_AFTER_SECONDS) } },
  );
}

/** Where a standalone host serves the webhook: the configured host and port, the URL's path. */
function listenOf(webhook: TelegramWebhookConfig): ChannelListen {
  return { host: webhook.host, port: webhook.port, paths: [new URL(webhook.url).pathname] };
}

/** The banner line: the webhook URL without its query (it may carry a credential of the proxy's). */
function describeInstance(username: string, webhook: TelegramWebhookConfig | undefined): string {
  if (!webhook) return `telegram (${username}, long polling)`;
  const url = new URL(webhook.url);
  return `telegram (${username}, webhook ${url.origin}${url.pathname})`;
}

/**
 * Builds the bot (its `getMe` included, for the banner: one try within 15 s, failing as a `ChannelError`
 * — `refused` for a wrong token, `unreachable` when Telegram can't be reached — so a host can say why
 * and try again) and the channel; nothing is received until `start`. Webhook mode: `handleWebhook`
 * answers 503 with `Retry-After` until then (and after `stop`), and `listen` says where a standalone host
 * serves it.
 *
 * @example
 * const telegram = await create({ config, logger, coordination: store, instanceId: "gw-1" });
 * const askUser = createAskUser({ store, channels: [telegram] });
 * await telegram.start(askUser);
 */
export async function create(context: ChannelPluginContext<TelegramConfig>): Promise<TelegramAdapter> {
  const { config, logger, coordination, instanceId } = context;
  const bot = new Bot(
    config.token,
    config.apiRoot === undefined ? {} : { client: { apiRoot: config.apiRoot } },
  );
  bot.catch((error) => {
    const details = {
      channel: "telegram",
      updateId: error.ctx.update.update_id,
      err: describeError(error.error),
    };
    logger.error(details, "handler failed");
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
  const channel = createTelegramChannel({
    bot,
    logger,
    coordination,
    ingress: webhook ? "webhook" : "polling",
  });
  let state: "created" | "starting" | "running" | "stopped" = "created";
  let polling: Polling | undefined;
  let handler: WebhookHandler | undefined;

  const start = async (broker: AskUserBroker): Promise<void> => {
    if (state !== "created")
      throw new AskUserError("invalid_input", `The Telegram channel cannot be started when ${state}.`);
    state = "starting";
    await channel.start(broker);
    bot.on("callback_query", (ctx) => answerUnhandledTap(ctx, logger));
    if (webhook) {
      // Served from now on: updates Telegram sends right after setWebhook are not bounced.
      handler = createWebhookHandler(bot, { secretToken: webhook.secret, logger });
      const api = createChannelApi(config.token, bot.api.options);
      const settings = { secret_token: webhook.secret, allowed_updates: [...ALLOWED_UPDATES] };
      await api.setWebhook(webhook.url, settings).catch((error: unknown) => {
        throw toChannelError(error, "setWebhook");
      });
    } else {
      const { leaseTtlMs, retryDelayMs } = config.polling ?? {};
      polling = await startPolling(bot, {
        allowedUpdates: ALLOWED_UPDATES,
        logger,
        coordination,
        instanceId,
        ...(leaseTtlMs === undefined ? {} : { leaseTtlMs }),
        ...(retryDelayMs === undefined ? {} : { retryDelayMs }),
      });
    }
    if (state !== "starting") {
      await polling?.stop(); // stop() came while polling started
      return;
    }
    state = "running";
    const mode = webhook ? "webhook" : "long polling";
    logger.info?.({ channel: "telegram", bot: username, mode }, "telegram ready");
  };

  return {
    ...channel,
    bot,
    describe: describeInstance(username, webhook),
    ...(webhook
      ? {
          listen: listenOf(webhook),
          handleWebhook: async (request: Request) =>
            state !== "stopped" && handler ? handler(request) : notReady(),
        }
      : {}),
    start,
    async stop() {
      state = "stopped";
      await polling?.stop();
      polling = undefined;
      // Webhook updates answered 200 while still being handled finish first (bounded).
      if (handler && !(await handler.settled(WEBHOOK_STOP_WAIT_MS))) {
        const details = { channel: "telegram", afterMs: WEBHOOK_STOP_WAIT_MS };
        logger.warn(details, "stopped with webhook updates still being handled");
      }
      await channel.stop();
    },
  };
}
