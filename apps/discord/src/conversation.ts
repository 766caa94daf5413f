/**
 * Conversation ids as the broker sees them: a channel id (guild text channel or thread) or
 * `user:<user id>` for the DM between the bot and that user. Messages and taps in a DM report the DM
 * as `user:<author id>`, so a question targeted at `user:42` is answered in that DM.
 */

/** A parsed target. */
export type DiscordTarget = { kind: "channel"; id: string } | { kind: "user"; id: string };

/** A Discord id (user, channel, message): 15–21 digits. */
export const SNOWFLAKE = /^\d{15,21}$/;

/**
 * Reads a conversation id: `123…` or `channel:123…` (a channel or thread), `user:123…` (a DM), also
 * Discord's own `<#123…>` and `<@123…>` forms. Anything else gives `undefined`.
 *
 * @example parseTarget("user:80351110224678912") // { kind: "user", id: "80351110224678912" }
 */
export function parseTarget(conversation: string | undefined): DiscordTarget | undefined {
  const text = conversation?.trim() ?? "";
  const match = /^(?:(channel|user):|<(#|@!?))?(\d+)>?$/.exec(text);
  const id = match?.[3];
  if (!match || id === undefined || !SNOWFLAKE.test(id)) return undefined;
  const closed = text.endsWith(">");
  if ((match[2] !== undefined) !== closed) return undefined;
  const kind = match[1] === "user" || match[2]?.startsWith("@") ? "user" : "channel";
  return { kind, id };
}

/** The conversation id of the DM with a user. */
export function dmConversation(userId: string): string {
  return `user:${userId}`;
}
