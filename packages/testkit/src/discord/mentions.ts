/** Who a message would ping: its content's mentions, filtered by `allowed_mentions`, plus the replied-to author. */

import type { Pings } from "./types.ts";
import type { AllowedMentions } from "./validate.ts";

const EVERYONE = /(?<!\\)@(everyone|here)\b/;
const USER = /(?<!\\)<@!?(\d{1,20})>/g;
const ROLE = /(?<!\\)<@&(\d{1,20})>/g;

/**
 * The pings of a new message. Without `allowed_mentions` Discord parses everything and pings the
 * replied-to author; with it, only what it allows (`replied_user` defaults to false).
 */
export function pingsOf(
  content: string,
  allowed: AllowedMentions | undefined,
  repliedAuthor?: string,
): Pings {
  const parse = new Set(allowed ? (allowed.parse ?? []) : ["users", "roles", "everyone"]);
  const users = new Set<string>();
  for (const [, id] of content.matchAll(USER)) {
    if (id !== undefined && (parse.has("users") || allowed?.users?.includes(id))) users.add(id);
  }
  const roles = new Set<string>();
  for (const [, id] of content.matchAll(ROLE)) {
    if (id !== undefined && (parse.has("roles") || allowed?.roles?.includes(id))) roles.add(id);
  }
  const repliedUser = allowed ? allowed.replied_user === true : true;
  if (repliedAuthor !== undefined && repliedUser) users.add(repliedAuthor);
  return { everyone: parse.has("everyone") && EVERYONE.test(content), users: [...users], roles: [...roles] };
}

/** Mentions as a user's client writes them: every `<@id>` and the replied-to author when `mentionReplied`. */
export function mentionedIds(content: string, repliedAuthor: string | undefined): string[] {
  const ids = new Set<string>();
  for (const [, id] of content.matchAll(USER)) if (id !== undefined) ids.add(id);
  if (repliedAuthor !== undefined) ids.add(repliedAuthor);
  return [...ids];
}
