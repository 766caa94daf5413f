/** The Discord channel: core's `Channel` port on a discord.js `Client` the host already has. */
import { type AskUserBroker, type Channel, consoleLogger } from "@ask-user/core";
import {
  type Client,
  DiscordAPIError,
  Events,
  GatewayIntentBits,
  type Interaction,
  type Message,
  Partials,
  RESTJSONErrorCodes,
  type SendableChannels,
} from "discord.js";
import { dmConversation, parseTarget } from "./conversation.ts";
import { type DiscordLogger, type InboundContext, onInteraction, onMessage } from "./inbound.ts";
import { DEFER_AFTER_MS } from "./limits.ts";
import { mentionOf, renderNotice, renderSummaryNotice } from "./notice.ts";
import { missingIntentHint, renderButtonPrompt, renderTextPrompt } from "./render.ts";

/** Options of {@link createDiscordChannel}. */
export interface DiscordChannelOptions {
  /** The host's discord.js client (logged in or not yet). */
  client: Client;
  /** The broker; a getter because the broker is created after its channels. */
  broker: () => AskUserBroker;
  /** The channel's name in targets (`{ channel: name, conversation }`). Default `"discord"`. */
  name?: string;
  /** Default: core's console logger. */
  logger?: DiscordLogger;
  /** Defer a tap the broker has not decided after this long (a slow store). Default 1500 ms. */
  deferAfterMs?: number;
  /**
   * Only for a client the channel owns (the standalone runner, `runDiscord`): a button or modal that is
   * not ask-user's and that no other listener answered within `deferAfterMs` is acknowledged (deferred),
   * so its user does not see "This interaction failed". Never set it on a host's client. Default false.
   */
  acknowledgeUnhandled?: boolean;
  /**
   * Called with each message that answered no question (bots' included), for hosts that want to handle
   * only those; the host's own `messageCreate` listeners see every message anyway.
   */
  onUnhandledMessage?: (message: Message) => void;
}

/** A mounted Discord channel. */
export interface DiscordChannel {
  /** The port to pass to `createAskUser({ channels })`. */
  readonly channel: Channel;
  /** False while the bot cannot read ordinary guild messages (no Message Content intent). */
  readonly messageContent: boolean;
  /** Removes the channel's listeners from the client (the client itself keeps running). */
  detach(): void;
}

const NO_MENTIONS = { parse: [] } as const;

function isGone(error: unknown): boolean {
  return (
    error instanceof DiscordAPIError &&
    (error.code === RESTJSONErrorCodes.UnknownMessage || error.code === RESTJSONErrorCodes.UnknownChannel)
  );
}

/** The channel a conversation id stands for: a guild channel or thread, or the DM with `user:<id>`. */
async function channelFor(client: Client, conversation: string): Promise<SendableChannels> {
  const target = parseTarget(conversation);
  if (!target) {
    throw new TypeError(
      `"${conversation}" is not a Discord conversation: use a channel id or user:<user id> for a DM.`,
    );
  }
  if (target.kind === "user") return client.users.createDM(target.id);
  const channel = await client.channels.fetch(target.id);
  if (!channel?.isSendable()) throw new TypeError(`Discord channel ${target.id} is not a text channel.`);
  if (channel.isDMBased()) {
    throw new TypeError(`Discord channel ${target.id} is a DM: target its user as user:<user id> instead.`);
  }
  return channel;
}

/**
 * Mounts ask-user on a discord.js client: adds `interactionCreate` and `messageCreate` listeners (the
 * host's own listeners keep working; events that are not ours are left alone) and returns the channel.
 * The client needs the `Guilds`, `GuildMessages` and `DirectMessages` intents and `Partials.Channel`;
 * `MessageContent` for text answers in guild channels.
 *
 * @example
 * const client = new Client({
 *   intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.DirectMessages, GatewayIntentBits.MessageContent],
 *   partials: [Partials.Channel],
 * });
 * const discord = createDiscordChannel({ client, broker: () => askUser });
 * const askUser = createAskUser({ store, channels: [discord.channel] });
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

  const ctx: InboundContext = {
    client,
    broker: options.broker,
    name,
    logger,
    deferAfterMs: options.deferAfterMs ?? DEFER_AFTER_MS,
    inPlace: new Map(),
    updated: new Map(),
    acknowledgeUnhandled: options.acknowledgeUnhandled ?? false,
    contentMissing: warnMissingIntent,
    onUnhandledMessage: options.onUnhandledMessage,
  };

  const channel: Channel = {
    name,
    capabilities: { buttons: true, edit: true, privateNotices: true },
    async deliver({ record, locale, text, buttons }) {
      const conversation = record.target?.conversation;
      if (conversation === undefined) throw new TypeError("The question has no target conversation.");
      const target = await channelFor(client, conversation);
      const hint =
        !target.isDMBased() && !messageContent ? missingIntentHint(locale, client.user?.id ?? "") : undefined;
      const context = hint === undefined ? { locale } : { locale, hint };
      const payload = buttons
        ? renderButtonPrompt(record, context)
        : { content: renderTextPrompt(record, text, context), components: [] };
      const message = await target.send({ ...payload, allowedMentions: NO_MENTIONS });
      return { messageId: message.id };
    },
    async finalize({ record, delivery, summary }) {
      // A tap that resolved the question updates its message in place (type 7): no second edit.
      const taps = ctx.inPlace.get(delivery.messageId);
      if (taps && (await Promise.all([...taps])).some(Boolean)) return;
      if (ctx.updated.has(delivery.messageId)) return;
      try {
        const target = await channelFor(client, delivery.conversation);
        await target.messages.edit(delivery.messageId, {
          content: renderSummaryNotice(summary, record.resolvedBy, name),
          components: [],
          allowedMentions: NO_MENTIONS,
        });
      } catch (error) {
        if (!isGone(error)) throw error;
      }
    },
    async notify({ conversation, text, userId, private: only, replyTo }) {
      const content = renderNotice(text);
      const target = await channelFor(client, conversation);
      if (only && userId !== undefined && !target.isDMBased()) {
        // No ephemeral messages outside interactions: tell the person in their DM instead.
        try {
          const dm = await client.users.createDM(userId);
          const sent = await dm.send({ content, allowedMentions: NO_MENTIONS });
          // A reply to it comes from the DM, so that is where it is remembered.
          return { messageId: sent.id, conversation: dmConversation(userId) };
        } catch (error) {
          logger.warn({ channel: name, userId, err: String(error) }, "Discord: private notice by DM failed");
        }
      }
      const message = await target.send({
        content,
        allowedMentions: { parse: [], repliedUser: false },
        ...(replyTo === undefined ? {} : { reply: { messageReference: replyTo, failIfNotExists: false } }),
      });
      return { messageId: message.id };
    },
    async displayName(userId) {
      // `<@id>`: every client shows the name; every message is sent with mentions suppressed.
      return mentionOf(userId);
    },
  };

  const interactionListener = (interaction: Interaction) => {
    void onInteraction(ctx, interaction);
  };
  const messageListener = (message: Message) => {
    void onMessage(ctx, message);
  };
  client.on(Events.InteractionCreate, interactionListener);
  client.on(Events.MessageCreate, messageListener);

  return {
    channel,
    get messageContent() {
      return messageContent;
    },
    detach() {
      client.off(Events.InteractionCreate, interactionListener);
      client.off(Events.MessageCreate, messageListener);
    },
  };
}
