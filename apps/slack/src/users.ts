/**
 * Who someone is (`users.info`: name, locale) and their DM channel (`conversations.open`), cached (core's
 * bound, 1,000). A lookup never fails the caller: a missing scope or a slow API names them `<@U…>`.
 */
import { type ReplyEvent, rememberBounded, TIMED_OUT, within } from "@ask-user/core/channel";
import type { webApi } from "@slack/bolt";
import { USER_CACHE_TTL_MS, USER_LOOKUP_BUDGET_MS } from "./limits.ts";

/** A person as the broker names them: `@display name` (`✅ Deploy: Staging — @alice`) or `<@U…>`. */
type Person = Pick<ReplyEvent, "displayName" | "locale">;

/** How Slack names a user without a lookup: `<@U0ALICE>`, which Slack shows as their current name (SPEC §5). */
export function mention(userId: string): string {
  return `<@${userId}>`;
}

/** The people directory of one workspace. */
export type People = ReturnType<typeof createPeople>;

export function createPeople(client: webApi.WebClient, now: () => number = Date.now) {
  // A lookup in flight is cached too: a second tap meanwhile waits for the same `users.info`.
  const people = new Map<string, { person: Promise<Person>; at: number }>();
  const dms = new Map<string, string>();

  const fetchPerson = (userId: string): Promise<Person> =>
    client.users.info({ user: userId, include_locale: true }).then(
      ({ user }) => {
        const name = user?.profile?.display_name || user?.name || user?.real_name;
        const displayName = name ? `@${name}` : mention(userId);
        return user?.locale ? { displayName, locale: user.locale } : { displayName };
      },
      () => ({ displayName: mention(userId) }),
    );

  return {
    /** The person, from the cache or `users.info`; waits at most `budgetMs` (the answer is cached later). */
    async lookup(userId: string, budgetMs = USER_LOOKUP_BUDGET_MS): Promise<Person> {
      let cached = people.get(userId);
      if (!cached || now() - cached.at >= USER_CACHE_TTL_MS) {
        cached = { person: fetchPerson(userId), at: now() };
        rememberBounded(people, userId, cached);
      }
      const found = await within(cached.person, budgetMs);
      return found === TIMED_OUT ? { displayName: mention(userId) } : found;
    },
    /** The DM channel id with a user (`conversations.open`); throws when Slack refuses. */
    async dm(userId: string): Promise<string> {
      const known = dms.get(userId);
      if (known) return known;
      const id = (await client.conversations.open({ users: userId })).channel?.id;
      if (!id) throw new Error(`conversations.open gave no channel for ${userId}`);
      rememberBounded(dms, userId, id);
      return id;
    },
  };
}
