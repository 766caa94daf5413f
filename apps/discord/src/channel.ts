/** The Discord channel: core's `Channel` port on a discord.js `Client` the host already has. */
import {
  type AskUserBroker,
  type Channel,
  type ChannelLogger,
  type Coordination,
  consoleLogger,
  createMemoryCoordination,
} from "@ask-user/core";
import { type Client, Events, GatewayIntentBits, type Interaction, type Message, Partials } from "discord.js";
import { type InboundContext, onInteraction, onMessage } from "./inbound.ts";
import { DEFER_AFTER_MS } from "./limits.ts";
import { createMessageStates } from "./message-state.ts";
import { createOutbound } from "./outbound.ts";
import { createPort, formView, type PortDeps } from "./port.ts";
import { missingIntentHint, type PromptContext } from "./render.ts";

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
   * Only for a client the channel owns (the plugin's instance): a button or modal that is not ask-user's
   * and that no other listener answered within `deferAfterMs` is acknowledged (deferred), so its user
   * does not see "This interaction failed". Never set it on a host's client. Default false.
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

/** A Discord channel on a client: the port now, inbound once {@link DiscordChannel.attach} gets the broker. */
export interface DiscordChannel {
  /** The port to pass to `createAskUser({ channels })`: it sends, edits and notifies at once. */
  readonly channel: Channel;
  /**
   * Starts handling taps, modal submissions and text replies with `broker` (the one built with
   * `channel`): adds one `interactionCreate` and one `messageCreate` listener to the client. Until then
   * the channel only sends. Calling it again hands inbound events to the new broker.
   */
  attach(broker: AskUserBroker): void;
  /** Removes the channel's listeners from the client (the client itself keeps running). */
  detach(): void;
  /** False while the bot cannot read ordinary guild messages (no Message Content intent). */
  readonly messageContent: boolean;
  /**
   * Tells the channel that its connection has no Message Content intent (Discord refused it): prompts in
   * guild channels then ask people to mention the bot. Logged once.
   */
  noMessageContent(): void;
}

/**
 * Mounts ask-user on a discord.js client, in two steps: this creates the channel (pass
 * `discord.channel` to `createAskUser`); `discord.attach(broker)` then adds one `interactionCreate` and
 * one `messageCreate` listener (the host's own listeners keep working; events that are not ours are left
 * alone). The client needs the `Guilds`, `GuildMessages` and `DirectMessages` intents and
 * `Partials.Channel`; `MessageContent` for text answers in guild channels.
 *
 * @example
 * const client = new Client({
 *   intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.DirectMessages, GatewayIntentBits.MessageContent],
 *   partials: [Partials.Channel],
 * });
 * const discord = createDiscordChannel({ client });
 * const askUser = createAskUser({ store, channels: [discord.channel] });
 * discord.attach(askUser);
 * await client.login(process.env.DISCORD_BOT_TOKEN);
 * await askUser.ask(input, { target: { channel: "discord", conversation: "1234567890123456789" } });
 */
export function createDiscordChannel(options: DiscordChannelOptions): DiscordChannel {
  const { client } = options;
  const name = options.name ?? "discord";
  const logger = options.logger ?? consoleLogger;
  let messageContent = client.options.intents.has(GatewayIntentBits.MessageContent);
  let warned = false;
  const warnMissingIntent = () => {
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
  if (!messageContent) warnMissingIntent();
  if (!client.options.partials?.includes(Partials.Channel)) {
    logger.warn({ channel: name }, "Discord: without Partials.Channel, DMs after a restart can be missed.");
  }

  const outbound = createOutbound(client);
  const coordination = options.coordination ?? createMemoryCoordination();
  const botId = () => client.user?.id ?? options.botId ?? "";
  /** What taps, finalize and refresh know of the prompt messages (shared, so their edits stay in order). */
  const states = createMessageStates();
  const deps: PortDeps = {
    name,
    logger,
    outbound,
    states,
    context(locale, dm, forName): PromptContext {
      const hint = !dm && !messageContent ? missingIntentHint(locale, botId()) : undefined;
      return {
        locale,
        ...(hint === undefined ? {} : { hint }),
        ...(forName === undefined ? {} : { forName }),
      };
    },
  };
  const channel: Channel = createPort(deps);

  let inbound: InboundContext | undefined;
  const interactionListener = (interaction: Interaction) => {
    if (inbound) void onInteraction(inbound, interaction);
  };
  const messageListener = (message: Message) => {
    if (inbound) void onMessage(inbound, message);
  };
  const detach = () => {
    client.off(Events.InteractionCreate, interactionListener);
    client.off(Events.MessageCreate, messageListener);
    inbound = undefined;
  };

  return {
    channel,
    attach(broker) {
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
        messages: states,
        view: (record, dm) => formView(deps, record, dm),
        acknowledgeUnhandled: options.acknowledgeUnhandled ?? false,
        contentMissing: warnMissingIntent,
        onUnhandledMessage: options.onUnhandledMessage,
      };
    },
    detach,
    get messageContent() {
      return messageContent;
    },
    noMessageContent: warnMissingIntent,
  };
}
