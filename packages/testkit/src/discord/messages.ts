/** Messages: creating, editing and dispatching them (MESSAGE_CREATE / MESSAGE_UPDATE), with Message Content rules. */
import { unknownEmoji, unknownMessage } from "./errors.ts";
import { dispatch } from "./gateway.ts";
import {
  INTENT_DIRECT_MESSAGES,
  INTENT_GUILD_MESSAGES,
  INTENT_MESSAGE_CONTENT,
  NONCE_WINDOW_MS,
} from "./limits.ts";
import { pingsOf } from "./mentions.ts";
import { memberJson, userJson } from "./payloads.ts";
import {
  apiMessage,
  findMessage,
  guildOf,
  isoNow,
  notify,
  rememberButtons,
  type Session,
  type State,
  snowflake,
  storeMessage,
} from "./state.ts";
import type { DcChannel, DcMessage, DcUser, FakeMessage } from "./types.ts";
import type { MessageBody } from "./validate.ts";

/** What a new message is made of. */
export interface NewMessage {
  channel: DcChannel;
  author: DcUser;
  body: MessageBody;
  /** User ids the author's client mentioned (user messages; bot messages compute pings instead). */
  mentions?: string[];
  webhookId?: string;
}

/** Builds a message (not yet stored): reference resolved, pings computed. */
export function buildMessage(state: State, init: NewMessage): FakeMessage {
  const { channel, author, body } = init;
  const guild = guildOf(state, channel);
  let referenced: FakeMessage | undefined;
  if (body.message_reference) {
    referenced = findMessage(
      state,
      body.message_reference.channel_id ?? channel.id,
      body.message_reference.message_id,
    );
    if (!referenced && body.message_reference.fail_if_not_exists !== false) throw unknownMessage();
  }
  const content = body.content ?? "";
  const pings = pingsOf(content, body.allowed_mentions, referenced?.author.id);
  const mentionIds = init.mentions ?? pings.users;
  const message: FakeMessage = {
    id: snowflake(state),
    type: referenced ? 19 : 0,
    channel_id: channel.id,
    author: userJson(author),
    content,
    timestamp: isoNow(state),
    edited_timestamp: null,
    tts: false,
    mention_everyone: pings.everyone,
    mentions: mentionIds.flatMap((id) => {
      const known = id === state.bot.id ? state.bot : state.users.get(id)?.user;
      return known ? [userJson(known)] : [];
    }),
    mention_roles: pings.roles,
    attachments: [],
    embeds: body.embeds ?? [],
    pinned: false,
    flags: body.flags ?? 0,
    components: structuredClone(body.components ?? []),
    pings,
  };
  if (guild) message.guild_id = guild.id;
  if (init.webhookId !== undefined) {
    message.webhook_id = init.webhookId;
    message.application_id = state.applicationId;
  }
  if (body.allowed_mentions !== undefined) message.allowed_mentions = structuredClone(body.allowed_mentions);
  if (body.nonce !== undefined) message.nonce = body.nonce;
  if (referenced) {
    message.message_reference = { type: 0, message_id: referenced.id, channel_id: referenced.channel_id };
    if (referenced.guild_id !== undefined) message.message_reference.guild_id = referenced.guild_id;
    message.referenced_message = apiMessage(referenced);
  }
  return message;
}

/**
 * Whether a session may read a message's content: always in DMs and with the Message Content intent;
 * without it only the bot's own messages and those that mention the bot — a reply counts only while it
 * pings the bot (the reply's "@ mention" on); with the ping off Discord sends it empty.
 */
function readable(state: State, session: Session, message: DcMessage, dm: boolean): boolean {
  return (
    dm ||
    (session.intents & INTENT_MESSAGE_CONTENT) !== 0 ||
    message.author.id === state.bot.id ||
    message.mentions.some((user) => user.id === state.bot.id)
  );
}

/** Empties what the Message Content intent guards. */
function withoutContent(message: DcMessage): void {
  message.content = "";
  message.embeds = [];
  message.attachments = [];
  message.components = [];
}

/** The MESSAGE_CREATE / MESSAGE_UPDATE payload for one session, or undefined if its intents exclude it. */
function forSession(state: State, session: Session, message: FakeMessage): DcMessage | undefined {
  const channel = state.channels.get(message.channel_id);
  const dm = channel?.type === 1;
  const needed = dm ? INTENT_DIRECT_MESSAGES : INTENT_GUILD_MESSAGES;
  if ((session.intents & needed) === 0) return undefined;
  const payload = apiMessage(message);
  payload.channel_type = channel?.type ?? 0;
  const guild = channel ? guildOf(state, channel) : undefined;
  if (guild && !message.webhook_id) payload.member = memberJson(state, guild, message.author, false);
  if (!readable(state, session, payload, dm)) withoutContent(payload);
  const quoted = payload.referenced_message;
  if (quoted && !readable(state, session, quoted, dm)) withoutContent(quoted);
  return payload;
}

/**
 * The message `author` already sent in `channelId` with this nonce within {@link NONCE_WINDOW_MS} —
 * what Discord returns instead of posting again when the body has `enforce_nonce`.
 */
export function sentWithNonce(
  state: State,
  channelId: string,
  authorId: string,
  nonce: string | number,
): FakeMessage | undefined {
  const since = state.now() - NONCE_WINDOW_MS;
  for (const message of state.messages.get(channelId)?.values() ?? []) {
    if (message.author.id !== authorId || message.nonce === undefined) continue;
    if (String(message.nonce) === String(nonce) && Date.parse(message.timestamp) >= since) return message;
  }
  return undefined;
}

/** Stores a public message and dispatches MESSAGE_CREATE. */
export function postMessage(state: State, message: FakeMessage): FakeMessage {
  storeMessage(state, message);
  dispatch(state, "MESSAGE_CREATE", (session) => forSession(state, session, message));
  return message;
}

/** Applies an edit (content, components, embeds, flags, allowed_mentions) and dispatches MESSAGE_UPDATE. */
export function applyEdit(state: State, message: FakeMessage, body: MessageBody): FakeMessage {
  if (body.content !== undefined) message.content = body.content;
  if (body.components !== undefined) message.components = structuredClone(body.components);
  if (body.embeds !== undefined) message.embeds = body.embeds;
  if (body.flags !== undefined) message.flags = body.flags;
  if (body.allowed_mentions !== undefined) message.allowed_mentions = structuredClone(body.allowed_mentions);
  message.edited_timestamp = isoNow(state);
  rememberButtons(state, message);
  if (message.visible_to === undefined) {
    dispatch(state, "MESSAGE_UPDATE", (session) => forSession(state, session, message));
  }
  notify(state);
  return message;
}

/** A Unicode emoji as a reaction path segment; custom emoji (`name:id`) are unknown to the fake. */
const UNICODE_EMOJI = /^(?:\p{Extended_Pictographic}|\p{Regional_Indicator}|[#*0-9]\uFE0F?\u20E3)/u;

/**
 * `PUT /channels/{id}/messages/{id}/reactions/{emoji}/@me`: the bot reacts (once; a repeat changes
 * nothing). An emoji that is not a Unicode emoji is 400 10014 "Unknown Emoji", as for an emoji the bot
 * cannot use. No MESSAGE_REACTION_ADD is dispatched (see the README).
 */
export function addOwnReaction(state: State, message: FakeMessage, emoji: string): void {
  if (!UNICODE_EMOJI.test(emoji) || emoji.includes(":")) throw unknownEmoji();
  const reactions = message.reactions ?? [];
  const known = reactions.find((r) => r.emoji.name === emoji);
  if (!known) reactions.push({ count: 1, me: true, emoji: { id: null, name: emoji } });
  else if (!known.me) Object.assign(known, { count: known.count + 1, me: true });
  message.reactions = reactions;
  notify(state);
}
