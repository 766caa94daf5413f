/**
 * Conversation ids as the broker sees them: a channel id (guild text channel or thread) or
 * `user:<user id>` for the DM between the bot and that user. Messages and taps in a DM report the DM
 * as `user:<author id>`, so a question targeted at `user:42` is answered in that DM. Pure, no SDK: the
 * plugin module imports it.
 */

/** A parsed conversation: a guild channel or thread, or the DM with a user. */
export type DiscordConversation = { kind: "channel"; id: string } | { kind: "user"; id: string };

/** A Discord id (user, channel, message): 15–21 digits. */
export const SNOWFLAKE = /^\d{15,21}$/;

/**
 * Reads a conversation id: `123…` or `channel:123…` (a channel or thread), `user:123…` (a DM), also
 * Discord's own `<#123…>` and `<@123…>` forms. Anything else gives `undefined`; it never throws.
 *
 * @example parseConversation("user:80351110224678912") // { kind: "user", id: "80351110224678912" }
 */
export function parseConversation(text: string): DiscordConversation | undefined {
  const trimmed = typeof text === "string" ? text.trim() : "";
  const match = /^(?:(channel|user):|<(#|@!?))?(\d+)>?$/.exec(trimmed);
  const id = match?.[3];
  if (!match || id === undefined || !SNOWFLAKE.test(id)) return undefined;
  const closed = trimmed.endsWith(">");
  if ((match[2] !== undefined) !== closed) return undefined;
  const kind = match[1] === "user" || match[2]?.startsWith("@") ? "user" : "channel";
  return { kind, id };
}

/**
 * The conversation id of a parsed conversation, in its one canonical form: the channel id, or
 * `user:<id>` for a DM. `parseConversation(formatConversation(c))` gives `c` back.
 *
 * @example formatConversation({ kind: "user", id: "80351110224678912" }) // "user:80351110224678912"
 */
export function formatConversation(conversation: DiscordConversation): string {
  return conversation.kind === "user" ? `user:${conversation.id}` : conversation.id;
}
