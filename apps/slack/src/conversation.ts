/**
 * Conversation ids (README "Targets"): `C…`/`G…` or a user id `U…`/`W…` (their DMs), optionally
 * `:<thread_ts>`. Inbound events use the same names: a DM is the user's id, not the `D…` channel id.
 */

/** Where to post for a conversation: the channel (a DM opened for user ids) and the thread. */
export interface Place {
  channel: string;
  threadTs?: string | undefined;
  /** The conversation is a person's direct messages with the app. */
  direct: boolean;
}

/** A parsed conversation id: `base` is the channel id, or the user id (`user`) for direct messages. */
export interface SlackConversation {
  base: string;
  user: boolean;
  threadTs?: string;
}

const CONVERSATION = /^([CGUWD][A-Z0-9]{2,})(?::(\d+\.\d+))?$/;

/** Reads a conversation id; `undefined` when it is not one (never throws), a DM channel id (`D…`) included. */
export function parseConversation(text: string): SlackConversation | undefined {
  const [, base, threadTs] = CONVERSATION.exec(text.trim()) ?? [];
  if (base === undefined || base.startsWith("D")) return undefined;
  const conversation: SlackConversation = { base, user: base.startsWith("U") || base.startsWith("W") };
  if (threadTs !== undefined) conversation.threadTs = threadTs;
  return conversation;
}

/** Why `text` is not a conversation id, in a sentence for the operator (what `parseConversation` refused). */
export function conversationProblem(text: string): string {
  const base = CONVERSATION.exec(text.trim())?.[1];
  if (base?.startsWith("D")) {
    return `Target a direct message by the user's id (U…), not the DM channel id "${base}".`;
  }
  return `"${text}" is not a Slack conversation: use a channel id (C…), a user id (U…) for direct messages, optionally followed by ":<thread_ts>".`;
}

/** The conversation id of a channel, a user's DMs, or a thread in either. */
export function formatConversation(conversation: { base: string; threadTs?: string | undefined }): string {
  const { base, threadTs } = conversation;
  return threadTs === undefined ? base : `${base}:${threadTs}`;
}

/** The conversation name of an event in `channelId` (a `D…` one is the user's DMs), in a thread or not. */
export function conversationOf(channelId: string, userId: string, threadTs?: string): string {
  return formatConversation({ base: channelId.startsWith("D") ? userId : channelId, threadTs });
}

/** The thread a message is in (its `thread_ts` when that is not its own `ts`: a parent with replies). */
export function threadOf(message: { ts?: string | undefined; thread_ts?: string | undefined }) {
  const thread = message.thread_ts;
  return thread !== undefined && thread !== "" && thread !== message.ts ? thread : undefined;
}

/** A person's message to core and back (`ReplyEvent.messageId`, `Notice.replyTo`): `<ts>`, `<thread_ts>/<ts>`. */
interface MessageRef {
  ts: string;
  threadTs?: string;
}

export function formatMessageRef(ref: MessageRef): string {
  return ref.threadTs === undefined ? ref.ts : `${ref.threadTs}/${ref.ts}`;
}

export function parseMessageRef(text: string): MessageRef {
  const slash = text.indexOf("/");
  return slash === -1 ? { ts: text } : { ts: text.slice(slash + 1), threadTs: text.slice(0, slash) };
}
