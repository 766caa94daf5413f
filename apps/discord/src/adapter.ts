/**
 * The Discord channel as core's adapter, one lifecycle `start(broker)` / `stop()`, two ways in:
 * `createDiscordChannel({ client })` mounts it on the host's discord.js client; the plugin's
 * `create(context)` builds its own client and holds the gateway connection (`ingress/gateway.ts`).
 */
import {
  type AskUserBroker,
  adapterOf,
  type Channel,
  type ChannelAdapter,
  type ChannelLogger,
  type ChannelPluginContext,
  type Coordination,
  consoleLogger,
  createMemoryCoordination,
  createOnce,
  createPromptMessages,
} from "@ask-user/core/channel";
import { Client, Events, GatewayIntentBits, type Interaction, type Message, Partials } from "discord.js";
import type { DiscordConfig } from "./config.ts";
import { parseConversation } from "./conversation.ts";
import { toChannelError } from "./errors.ts";
import { type InboundContext, onInteraction, onMessage } from "./inbound.ts";
import { clientOptions, holdGateway } from "./ingress/gateway.ts";
import { BUTTON_LABEL_MAX_CHARS, BUTTONS_MAX, DEDUPE_TTL_MS, DEFER_AFTER_MS } from "./limits.ts";
import { createNotify } from "./notices.ts";
import { createOutbound, whoAmI } from "./outbound.ts";
import { createPrompts, formMessage, type PromptDeps } from "./prompts.ts";
import { discordTime } from "./render/markdown.ts";
import { mentionOf } from "./render/notice.ts";
import { missingIntentHint } from "./render/prompt.ts";

export interface DiscordChannelOptions {
  /** Logged in or not yet. */
  client: Client;
  /** In targets (`{ channel: name, conversation }`). Default `"discord"`. */
  name?: string;
  logger?: ChannelLogger;
  /** Acknowledge a tap the broker has not decided after this long (a slow store). Default 2000 ms. */
  deferAfterMs?: number;
  /** Only on a client the channel owns (the plugin's): defer others' buttons and modals nobody answered. */
  acknowledgeUnhandled?: boolean;
  /** Called with each message that answered no question (bots' included). */
  onUnhandledMessage?: (message: Message) => void;
  /** Shared by every instance of the bot (SPEC §9): each event is handled by one. Default: this process. */
  coordination?: Coordination;
  /** For a client that never logs in itself (the plugin's REST-only one). Default `client.user.id`. */
  botId?: string;
}

/** Core's `Channel` on a client (pass it to `createAskUser({ channels })`) and the adapter lifecycle. */
export type DiscordChannel = ChannelAdapter &
  Required<Pick<Channel, "isDirect" | "refresh" | "displayName" | "formatTime">> & {
    readonly name: string;
    /** False while the bot cannot read ordinary guild messages (no Message Content intent). */
    readonly messageContent: boolean;
    /** Discord refused the Message Content intent: guild prompts then ask people to mention the bot. Logged once. */
    noMessageContent(): void;
  };

/**
 * Sends at once; `start(broker)` adds one `interactionCreate` and one `messageCreate` listener (again:
 * events go to the new broker), `stop()` removes them. The client needs the `Guilds`, `GuildMessages`
 * and `DirectMessages` intents and `Partials.Channel`; `MessageContent` for text answers in guilds.
 */
export function createDiscordChannel(options: DiscordChannelOptions): DiscordChannel {
  const { client, name = "discord", logger = consoleLogger } = options;
  let messageContent = true;
  const noMessageContent = () => {
    if (!messageContent) return;
    messageContent = false;
    logger.warn(
      { channel: name },
      "Discord: no Message Content intent, so the bot cannot read ordinary guild messages. Buttons, " +
        "modals and DMs work; text answers in guild channels must mention the bot (prompts say so). " +
        "Enable it under Bot → Privileged Gateway Intents and add GatewayIntentBits.MessageContent.",
    );
  };
  if (!client.options.intents.has(GatewayIntentBits.MessageContent)) noMessageContent();
  if (!client.options.partials?.includes(Partials.Channel))
    logger.warn({ channel: name }, "Discord: without Partials.Channel, DMs after a restart can be missed.");

  const outbound = createOutbound(client);
  const coordination = options.coordination ?? createMemoryCoordination();
  const once = createOnce({ coordination, ttlMs: DEDUPE_TTL_MS, logger, channel: name });
  const botId = () => client.user?.id ?? options.botId ?? "";
  const messages = createPromptMessages();
  const deps: PromptDeps = {
    name,
    outbound,
    messages,
    hint: (locale, dm) => (!dm && !messageContent ? missingIntentHint(locale, botId()) : undefined),
  };

  let inbound: InboundContext | undefined;
  const interactionListener = (interaction: Interaction) =>
    inbound && void onInteraction(inbound, interaction);
  const messageListener = (message: Message) => inbound && void onMessage(inbound, message);

  return {
    name,
    capabilities: {
      buttons: true,
      edit: true,
      privateNotices: true,
      maxButtons: BUTTONS_MAX,
      maxButtonLabel: BUTTON_LABEL_MAX_CHARS,
      ingress: "connection",
    },
    isDirect: (conversation) => parseConversation(conversation)?.kind === "user",
    ...createPrompts(deps),
    notify: createNotify(name, logger, outbound),
    // `<@id>`: every client shows the name; every message is sent with mentions suppressed.
    displayName: async (userId) => mentionOf(userId),
    formatTime: (epochMs) => discordTime(epochMs),
    get describe() {
      return `${name} (${client.user ? `@${client.user.username}, ` : ""}your client)`;
    },
    async start(broker: AskUserBroker) {
      if (!inbound) {
        client.on(Events.InteractionCreate, interactionListener);
        client.on(Events.MessageCreate, messageListener);
      }
      inbound = {
        broker,
        once,
        botId,
        name,
        logger,
        deferAfterMs: options.deferAfterMs ?? DEFER_AFTER_MS,
        messages,
        form: (record, dm) => formMessage(deps, record, dm),
        acknowledgeUnhandled: options.acknowledgeUnhandled ?? false,
        contentMissing: noMessageContent,
        onUnhandledMessage: options.onUnhandledMessage,
      };
    },
    async stop() {
      client.off(Events.InteractionCreate, interactionListener);
      client.off(Events.MessageCreate, messageListener);
      inbound = undefined;
    },
    get messageContent() {
      return messageContent;
    },
    noMessageContent,
  };
}

/**
 * The plugin's channel: the token checked (`GET /users/@me`), on its own REST-only client, which sends at
 * once; `start(broker)` takes part in the gateway lease and, on the holder, resolves at READY.
 */
export async function create(context: ChannelPluginContext<DiscordConfig>): Promise<ChannelAdapter> {
  const { config, logger, coordination } = context;
  const stopping = new AbortController();
  const hub = new Client(clientOptions(config.apiUrl, stopping.signal, true));
  hub.rest.setToken(config.token);
  const closeHub = async () => {
    stopping.abort();
    await hub.destroy();
  };
  const me = await whoAmI(hub).catch(async (error: unknown) => {
    await closeHub();
    throw error;
  });
  const botId = me.id;
  const channel = createDiscordChannel({
    client: hub,
    logger,
    acknowledgeUnhandled: true,
    coordination,
    botId,
  });
  const gateway = holdGateway({
    ...context,
    hub,
    botId,
    onNoMessageContent: () => channel.noMessageContent(),
  });
  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      await channel.stop();
      await gateway.stop();
      await closeHub();
    })();
    return stopped;
  };
  return adapterOf(channel, {
    // Read live: whether this instance holds the gateway connection right now.
    get describe() {
      const mode = {
        connected: `gateway${channel.messageContent ? "" : ", no Message Content intent"}`,
        rest: "REST; another instance holds the gateway",
        idle: "REST; not receiving yet",
      }[gateway.state];
      return `discord (@${me.username}, ${mode})`;
    },
    async start(broker) {
      await channel.start(broker);
      try {
        await gateway.start();
      } catch (error) {
        await stop();
        throw toChannelError(error, "connect to the gateway");
      }
    },
    stop,
  });
}
