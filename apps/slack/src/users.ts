/**
 * Who someone is: their Slack locale and display name from `users.info` (`include_locale`), cached,
 * and the DM channel of a user from `conversations.open`, cached. Lookups never fail the caller: a
 * missing scope or a slow API gives `{}`.
 */
import { rememberBounded } from "@ask-user/core/channel";
import type { webApi } from "@slack/bolt";
import { DM_CACHE_MAX, USER_CACHE_MAX, USER_CACHE_TTL_MS, USER_LOOKUP_BUDGET_MS } from "./limits.ts";

/** What the app knows about a person. */
export interface Person {
  /** `@display name`, for summaries (`✅ Deploy: Staging — @alice`). */
  displayName?: string;
  /** Their Slack locale, e.g. `de-DE`. */
  locale?: string;
}

/**
 * How Slack names a user without a lookup: `<@U0ALICE>`, which Slack shows as their current name (SPEC
 * §5). Used when `users.info` gives no name (no `users:read`, Slack slow or down) and for creators.
 */
export function mention(userId: string): string {
  return `<@${userId}>`;
}

/** The people directory of one workspace. */
export interface People {
  /** The person, from the cache or `users.info`; waits at most `budgetMs` (then `{}`, cached later). */
  lookup(userId: string, budgetMs?: number): Promise<Person>;
  /** The DM channel id with a user (`conversations.open`); throws when Slack refuses. */
  dm(userId: string): Promise<string>;
}

/** Creates the directory over a WebClient with a bot token. */
export function createPeople(client: webApi.WebClient, now: () => number = Date.now): People {
  const people = new Map<string, { person: Person; at: number }>();
  const inFlight = new Map<string, Promise<Person>>();
  const dms = new Map<string, string>();

  const fetchPerson = (userId: string): Promise<Person> => {
    const running = inFlight.get(userId);
    if (running) return running;
    const work = client.users
      .info({ user: userId, include_locale: true })
      .then((result) => {
        const user = result.user;
        const person: Person = {};
        const name = user?.profile?.display_name || user?.name || user?.real_name;
        if (name) person.displayName = `@${name}`;
        if (user?.locale) person.locale = user.locale;
        return person;
      })
      .catch((): Person => ({}))
      .then((person) => {
        rememberBounded(people, userId, { person, at: now() }, USER_CACHE_MAX);
        inFlight.delete(userId);
        return person;
      });
    inFlight.set(userId, work);
    return work;
  };

  return {
    lookup(userId, budgetMs = USER_LOOKUP_BUDGET_MS) {
      const cached = people.get(userId);
      if (cached && now() - cached.at < USER_CACHE_TTL_MS) return Promise.resolve(cached.person);
      return new Promise<Person>((resolve) => {
        const timer = setTimeout(() => resolve({}), budgetMs);
        void fetchPerson(userId).then((person) => {
          clearTimeout(timer);
          resolve(person);
        });
      });
    },
    async dm(userId) {
      const known = dms.get(userId);
      if (known) return known;
      const result = await client.conversations.open({ users: userId });
      const id = result.channel?.id;
      if (!id) throw new Error(`conversations.open gave no channel for ${userId}`);
      rememberBounded(dms, userId, id, DM_CACHE_MAX);
      return id;
    },
  };
}
