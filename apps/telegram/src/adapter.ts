/**
 * The Telegram channel: core's channel port over a grammY bot with one lifecycle, `start(broker)` /
 * `stop()` — mounted on the host's bot ({@link createTelegramChannel}), or built from the plugin's config
 * ({@link create}), which also receives: long polling under the shared lease, or the webhook.
 */
import {
  AskUserError,
  type ChannelAdapter,
  type ChannelIngress,
  type ChannelLogger,
  type ChannelPluginContext,
  type Coordination,
  consoleLogger,
  describeError,
  notReadyResponse,
} from "@ask-user/core/channel";
import { Api, Bot, type Context } from "grammy";
import type { TelegramConfig } from "./config.ts";
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

/** Options of {@link createTelegramChannel}. */
export interface TelegramChannelOptions<C extends Context = Context> {
  bot: Bot<C>;
  /** Default: stderr. */
  logger?: ChannelLogger;
  /** Shared with the other instances (every `QuestionStore` is one): each update is handled once across them. */
  coordination?: Coordination;
  /** For users without a supported `language_code` (default: the broker's locale). */
  defaultLocale?: string;
  /** Default `"telegram"`. */
  name?: string;
  /** Only sets `capabilities.ingress` (default `"polling"`). */
  ingress?: Extract<ChannelIngress, "polling" | "webhook">;
}

/** The channel: core's `Channel` port (pass it to `createAskUser({ channels })`) and its lifecycle. */
export type TelegramChannel = ChannelAdapter & { readonly name: string };

/** Built from the plugin's config: handlers added to `bot` after `start` get no callback queries. */
export type TelegramAdapter = TelegramChannel & { readonly bot: Bot };

/** How a bot built by {@link create} receives updates, once the channel's middleware is mounted. */
type Receiver = { start(api: Api): Promise<void>; stop(): Promise<void> };

/**
 * Mounts ask-user on an existing grammY bot: `start(broker)` adds the channel's middleware (`bot.use`);
 * handlers added before it see every update, handlers added after get what it passes on. `stop()` lets
 * every update pass on; the bot itself is yours to run and stop; `bot.api` is left alone.
 *
 * @example
 * const telegram = createTelegramChannel({ bot });
 * await telegram.start(createAskUser({ store, channels: [telegram] }));
 */
export function createTelegramChannel<C extends Context>(
  options: TelegramChannelOptions<C>,
): TelegramChannel {
  return mount(options);
}

function mount<C extends Context>(options: TelegramChannelOptions<C>, receiver?: Receiver): TelegramChannel {
  const { bot, name = "telegram", ingress = "polling" } = options;
  const logger: ChannelLogger = options.logger ?? consoleLogger;
  const api = createChannelApi(bot.token, bot.api.options);
  // Names are looked up while a question is created: one try, no retries that would hold it up.
  const lookup = new Api(bot.token, bot.api.options);
  const { messages, showForm, ...prompts } = createPrompts(api);
  let state: "created" | "starting" | "running" | "stopped" = "created";

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
      ingress,
    },
    // Private chats have positive ids; groups, supergroups and channels negative ones.
    isDirect: (conversation) => (parseConversation(conversation)?.chatId ?? 0) > 0,
    ...prompts,
    notify: (notice) => sendNotice({ api, logger, name }, notice),
    displayName: (userId, conversation) => lookUpName(lookup, userId, conversation),
    async start(broker) {
      if (state !== "created")
        throw new AskUserError("invalid_input", `The Telegram channel cannot be started when ${state}.`);
      state = "starting";
      const running = () => state !== "stopped";
      bot.use(createInbound<C>({ ...options, name, api, logger, broker, messages, showForm, running }));
      await receiver?.start(api);
      if (state !== "starting") return receiver?.stop(); // stop() came while it started
      state = "running";
      if (!receiver) return;
      const mode = ingress === "webhook" ? "webhook" : "long polling";
      logger.info?.({ channel: "telegram", bot: `@${bot.botInfo.username}`, mode }, "telegram ready");
    },
    async stop() {
      state = "stopped";
      await receiver?.stop();
    },
  };
}

/**
 * Builds the bot (its `getMe`: one try within 15 s, else a `ChannelError` a host can show) and the
 * channel; nothing is received until `start`; `handleWebhook` answers 503 before it and after `stop`.
 */
export async function create(context: ChannelPluginContext<TelegramConfig>): Promise<TelegramAdapter> {
  const { config, logger, coordination, instanceId } = context;
  const bot = new Bot(
    config.token,
    config.apiRoot === undefined ? {} : { client: { apiRoot: config.apiRoot } },
  );
  bot.catch(({ ctx, error }) => {
    logger.error(
      { channel: "telegram", updateId: ctx.update.update_id, err: describeError(error) },
      "handler failed",
    );
  });
  try {
    // One bounded getMe, not `bot.init()`: grammY retries that one silently for as long as Telegram
    // can't be reached (pauses growing to 20 minutes), so the host would never hear why.
    bot.botInfo = await bot.api.getMe(AbortSignal.timeout(15_000) as Parameters<typeof bot.api.getMe>[0]);
  } catch (error) {
    throw toChannelError(error, "getMe");
  }
  const { webhook } = config;
  let polling: Polling | undefined;
  let handler: WebhookHandler | undefined;
  const receiver: Receiver = {
    async start(api) {
      // The last handler: a tap nobody handled (another bot's, an old keyboard's) stops spinning.
      bot.on("callback_query", (ctx) =>
        ctx.answerCallbackQuery().catch((error: unknown) => {
          logger.warn(
            { channel: "telegram", err: describeError(error) },
            "could not answer a callback query",
          );
        }),
      );
      if (!webhook) {
        const bounds = config.polling;
        polling = await startPolling(bot, {
          allowedUpdates: ALLOWED_UPDATES,
          logger,
          coordination,
          instanceId,
          ...bounds,
        });
        return;
      }
      // Served from now on: updates Telegram sends right after setWebhook are not bounced.
      handler = createWebhookHandler(bot, { secretToken: webhook.secret, logger });
      const settings = { secret_token: webhook.secret, allowed_updates: [...ALLOWED_UPDATES] };
      await api.setWebhook(webhook.url, settings).catch((error: unknown) => {
        throw toChannelError(error, "setWebhook");
      });
    },
    async stop() {
      await polling?.stop();
      polling = undefined;
      const serving = handler;
      handler = undefined;
      // Webhook updates answered 200 while still being handled finish first (bounded).
      if (serving && !(await serving.settled(WEBHOOK_STOP_WAIT_MS)))
        logger.warn(
          { channel: "telegram", afterMs: WEBHOOK_STOP_WAIT_MS },
          "stopped with webhook updates still being handled",
        );
    },
  };
  const channel = mount({ bot, logger, coordination, ingress: webhook ? "webhook" : "polling" }, receiver);
  const username = `@${bot.botInfo.username}`;
  if (!webhook) return { ...channel, bot, describe: `telegram (${username}, long polling)` };
  const url = new URL(webhook.url);
  return {
    ...channel,
    bot,
    // Without the URL's query: it may carry a credential of the proxy's.
    describe: `telegram (${username}, webhook ${url.origin}${url.pathname})`,
    listen: { host: webhook.host, port: webhook.port, paths: [url.pathname] },
    handleWebhook: async (request: Request) =>
      handler
        ? handler(request)
        : notReadyResponse(
            "The Telegram channel is not receiving updates yet; try again.",
            WEBHOOK_NOT_READY_RETRY_AFTER_SECONDS,
          ),
  };
}
