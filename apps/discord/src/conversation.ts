/**
 * Conversation ids: a channel id (guild text channel or thread) or `user:<user id>` for the DM with that
 * user. Messages and taps in a DM report it as `user:<author id>`, so a question targeted at `user:42`
 * is answered in that DM. Pure, no SDK: the plugin module imports it.
 */

export type DiscordConversation = { kind: "channel"; id: string } | { kind: "user"; id: string };

export const SNOWFLAKE = /^\d{15,21}$/;

/** `123…` or `channel:123…`, `user:123…`, also Discord's `<#123…>` and `<@123…>`; never throws. */
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

/** The one canonical form: `parseConversation(formatConversation(c))` gives `c` back. */
export function formatConversation(conversation: DiscordConversation): string {
  return conversation.kind === "user" ? `user:${conversation.id}` : conversation.id;
}
