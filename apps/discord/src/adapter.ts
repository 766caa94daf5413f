/**
 * The Discord channel as core's adapter: the port (deliver a prompt — buttons, a form or text —, edit it
 * to the summary, re-render a form's draft, notify, name people, show times in each reader's zone) and
 * one lifecycle, `start(broker)` / `stop()`. Two ways in: `createDiscordChannel({ client })` mounts it
 * on a discord.js client the host already has; the plugin's `create(context)` builds its own client and
 * holds the gateway connection (`ingress/gateway.ts`).
 */
import {
  type AskUserBroker,
  type Channel,
  type ChannelAdapter,
  type ChannelLogger,
  type ChannelPluginContext,
  type Coordination,
  consoleLogger,
  createMemoryCoordination,
  createPromptMessages,
} from "@ask-user/core/channel";
import { Client, Events, GatewayIntentBits, type Interaction, type Message, Partials } from "discord.js";
import type { DiscordConfig } from "./config.ts";
import { parseConversation } from "./conversation.ts";
import { toChannelError } from "./errors.ts";
import { type InboundContext, onInteraction, onMessage } from "./inbound.ts";
import { clientOptions } from "./ingress/connection.ts";
import { holdGateway } from "./ingress/gateway.ts";
import { BUTTON_LABEL_MAX_CHARS, BUTTONS_MAX, DEFER_AFTER_MS } from "./limits.ts";
import { createNotify } from "./notices.ts";
import { createOutbound, whoAmI } from "./outbound.ts";
import { createPrompts, formMessage, type PromptDeps } from "./prompts.ts";
import { discordTime } from "./render/markdown.ts";
import { mentionOf } from "./render/notice.ts";
import { missingIntentHint } from "./render/prompt.ts";

/** Options of {@link createDiscordChannel}. */
export interface DiscordChannelOptions {
  /** The host's discord.js client (logged in or not yet). */
  client: Client;
  /** The channel's name in targets (`{ channel: name, conversation }`). Default `"discord"`. */
  name?: string;
  /** Default: core's console logger. */
  logger?: ChannelLogger;
  /** Acknowledge a tap the broker has not decided after this long (a slow store). Default 2000 ms. */
  deferAfterMs?: number;
  /**
   * Only for a client the channel owns (the plugin's): a button or modal that is not ask-user's and that
   * no other listener answered within `deferAfterMs` is acknowledged (deferred), so its user does not
   * see "This interaction failed". Never set it on a host's client. Default false.
   */
  acknowledgeUnhandled?: boolean;
  /**
   * Called with each message that answered no question (bots' included), for hosts that want to handle
   * only those; the host's own `messageCreate` listeners see every message anyway.
   */
  onUnhandledMessage?: (message: Message) => void;
  /**
   * Shared by every instance of the bot (the store's coordination, SPEC §9): each interaction and each
   * message is handled by exactly one of them, whichever connections receive it. Default: this process
   * only.
   */
  coordination?: Coordination;
  /**
   * The bot's user id, for a client that never logs in itself (the plugin's REST-only client, whose
   * events come from a connection it re-emits). Default `client.user.id`.
   */
  botId?: string;
}

/**
 * A Discord channel on a client: core's `Channel` (pass it to `createAskUser({ channels })`) and the
 * adapter lifecycle — `start(broker)` adds its listeners, `stop()` removes them (the client keeps running).
 */
export interface DiscordChannel extends ChannelAdapter {
  readonly name: string;
  /** False while the bot cannot read ordinary guild messages (no Message Content intent). */
  readonly messageContent: boolean;
  /**
   * Tells the channel that its connection has no Message Content intent (Discord refused it): prompts in
   * guild channels then ask people to mention the bot. Logged once.
   */
  noMessageContent(): void;
}

/**
 * Mounts ask-user on a discord.js client: the channel sends, edits and notifies at once;
 * `start(broker)` adds one `interactionCreate` and one `messageCreate` listener (the host's own
 * listeners keep working; events that are not ours are left alone; calling it again hands inbound events
 * to the new broker) and `stop()` removes them. The client needs the `Guilds`, `GuildMessages` and
 * `DirectMessages` intents and `Partials.Channel`; `MessageContent` for text answers in guild channels.
 *
 * @example
 * const discord = createDiscordChannel({ client });
 * const askUser = createAskUser({ store, channels: [discord] });
 * await discord.start(askUser);
 * await client.login(process.env.DISCORD_BOT_TOKEN);
 * await askUser.ask(input, { target: { channel: "discord", conversation: "1234567890123456789" } });
 */
export function createDiscordChannel(
  options: DiscordChannelOptions,
): DiscordChannel & Required<Pick<Channel, "isDirect" | "refresh" | "displayName" | "formatTime">> {
  const { client } = options;
  const name = options.name ?? "discord";
  const logger = options.logger ?? consoleLogger;
  let messageContent = client.options.intents.has(GatewayIntentBits.MessageContent);
  let warned = false;
  const noMessageContent = () => {
    messageContent = false;
    if (warned) return;
    warned = true;
    logger.warn(
      { channel: name },
      "Discord: no Message Content intent, so the bot cannot read ordinary guild messages. Buttons, " +
        "modals and DMs work; text answers in guild channels must mention the bot (prompts say so). " +
        "Enable it under Bot → Privileged Gateway Intents and add GatewayIntentBits.MessageContent.",
    );
  };
  if (!messageContent) noMessageContent();
  if (!client.options.partials?.includes(Partials.Channel)) {
    logger.warn({ channel: name }, "Discord: without Partials.Channel, DMs after a restart can be missed.");
  }

  const outbound = createOutbound(client);
  const coordination = options.coordination ?? createMemoryCoordination();
  const botId = () => client.user?.id ?? options.botId ?? "";
  /** Core's form state: taps, finalize and refresh of one message in order, no edit twice. */
  const messages = createPromptMessages();
  const deps: PromptDeps = {
    name,
    outbound,
    messages,
    hint: (locale, dm) => (!dm && !messageContent ? missingIntentHint(locale, botId()) : undefined),
  };
  const prompts = createPrompts(deps);

  let inbound: InboundContext | undefined;
  const interactionListener = (interaction: Interaction) => {
    if (inbound) void onInteraction(inbound, interaction);
  };
  const messageListener = (message: Message) => {
    if (inbound) void onMessage(inbound, message);
  };

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
    ...prompts,
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
        coordination,
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
 * The plugin's channel (`channelPlugin.create`): checks the token (`GET /users/@me`: a wrong one fails
 * here, with a readable error) and mounts the channel on its own REST-only client, which sends at once.
 * `start(broker)` attaches the handlers and takes part in the gateway lease (`ingress/gateway.ts`): on
 * the holder it resolves once the connection is READY. Buttons and modals that are not ask-user's and
 * that nobody answered are acknowledged. Discord pushes over the gateway: no webhook, nothing to listen on.
 *
 * @example
 * const discord = await create({ config: readDiscordConfig(process.env), logger, coordination: store, instanceId });
 */
export async function create(context: ChannelPluginContext<DiscordConfig>): Promise<ChannelAdapter> {
  const { config, logger, coordination, instanceId } = context;
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
  const channel = createDiscordChannel({
    client: hub,
    logger,
    acknowledgeUnhandled: true,
    coordination,
    botId: me.id,
  });
  const gateway = holdGateway({
    hub,
    token: config.token,
    apiUrl: config.apiUrl,
    botId: me.id,
    coordination,
    instanceId,
    logger,
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
  const { capabilities, isDirect, deliver, finalize, refresh, notify, displayName, formatTime } = channel;
  return {
    ...{ capabilities, isDirect, deliver, finalize, refresh, notify, displayName, formatTime },
    /** Read live: whether this instance holds the gateway connection right now. */
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
  };
}
