/**
 * Conversation addresses. A target conversation is a channel id (`C…`, `G…`), a user id (`U…`, `W…`:
 * the question goes to their direct messages with the app), either optionally followed by
 * `:<thread_ts>` to post into that thread, e.g. `C0123ABCD:1712345678.000100`.
 *
 * Inbound events use the same names: a direct message is the user's id (not the `D…` channel id), a
 * message inside a thread is `<conversation>:<thread_ts>`.
 */

/** A parsed conversation address. */
export interface SlackAddress {
  /** The channel id, or the user id for direct messages. */
  base: string;
  /** True when `base` is a user (direct messages). */
  user: boolean;
  /** The thread to post into. */
  threadTs?: string;
}

const ADDRESS = /^([CGUWD][A-Z0-9]{2,})(?::(\d+\.\d+))?$/;

/**
 * Parses a conversation address; throws an `Error` with a sentence for the operator when it is not one.
 * @example parseAddress("C0123ABCD:1712345678.000100") // { base: "C0123ABCD", user: false, threadTs: "1712345678.000100" }
 */
export function parseAddress(conversation: string): SlackAddress {
  const match = ADDRESS.exec(conversation.trim());
  const base = match?.[1];
  if (!match || base === undefined) {
    throw new Error(
      `"${conversation}" is not a Slack conversation: use a channel id (C…), a user id (U…) for direct messages, optionally followed by ":<thread_ts>".`,
    );
  }
  if (base.startsWith("D")) {
    throw new Error(`Target a direct message by the user's id (U…), not the DM channel id "${base}".`);
  }
  const address: SlackAddress = { base, user: base.startsWith("U") || base.startsWith("W") };
  if (match[2] !== undefined) address.threadTs = match[2];
  return address;
}

/** The conversation name of a thread: `C0123ABCD:1712345678.000100`. */
export function threadConversation(base: string, threadTs: string): string {
  return `${base}:${threadTs}`;
}

/** The thread a message is in (its `thread_ts` when that is not its own `ts`: a parent with replies). */
export function threadOf(message: { ts?: unknown; thread_ts?: unknown }): string | undefined {
  const thread = message.thread_ts;
  return typeof thread === "string" && thread !== message.ts ? thread : undefined;
}
