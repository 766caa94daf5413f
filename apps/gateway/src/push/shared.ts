import { AskUserError, describeError } from "@ask-user/core";
import type { RedisPushState } from "@ask-user/redis";
import type { Logger } from "pino";
import webpush from "web-push";
import { type LoadedVapidKeys, parseKeys } from "./keys.ts";
import {
  MAX_SUBSCRIPTIONS,
  type PushSubscriptionRecord,
  type PushSubscriptions,
  storedSubscription,
} from "./subscriptions.ts";

/**
 * How long an instance uses the subscriptions it read (ms): a subscription made through another
 * instance may miss the push of a question made in the next 2 s, if this instance claims it.
 */
const LIST_FRESH_MS = 2_000;

/** Web Push state shared by several gateway instances over Redis. */
export interface SharedPush {
  /** The one VAPID key pair of every instance: made by the first one to start (SET NX), read by the rest. */
  loadKeys(): Promise<LoadedVapidKeys>;
  subscriptions: PushSubscriptions;
  /** True for the one instance that pushes new question `id` (fail-open: true when Redis can't say). */
  claim(id: string, ttlMs: number): Promise<boolean>;
}

/**
 * The gateway's Web Push on Redis: the keys in `P push:vapid`, the subscriptions in the hash
 * `P push:subscriptions` (field: endpoint, value: the subscription's JSON with `createdAt`), and a claim
 * `P push:sent:<id>` per new question, so each question is pushed by one instance only.
 *
 * @example
 * const shared = openSharedPush(createRedisPushState({ url }), Date.now, logger);
 * const keys = await shared.loadKeys(); // the same on every instance
 */
export function openSharedPush(state: RedisPushState, now: () => number, logger: Logger): SharedPush {
  const { keys } = state;
  /** The list as last read, and until when it is used without asking Redis again. */
  let cached: { list: Promise<PushSubscriptionRecord[]>; until: number } | undefined;
  const read = async (): Promise<PushSubscriptionRecord[]> => {
    const out: PushSubscriptionRecord[] = [];
    for (const json of await state.listSubscriptions()) {
      const record = storedSubscription(parseJson(json));
      if (typeof record === "string") {
        logger.warn({ key: keys.subscriptions, why: record }, "skipped a damaged push subscription in Redis");
      } else out.push(record);
    }
    // Oldest first, as the file keeps them (ties by endpoint: one order on every instance).
    return out.sort((a, b) => a.createdAt - b.createdAt || (a.endpoint < b.endpoint ? -1 : 1));
  };
  return {
    async loadKeys() {
      const made = webpush.generateVAPIDKeys();
      const candidate = JSON.stringify({ ...made, createdAt: new Date(now()).toISOString() });
      const { text, created } = await state.vapidKeys(candidate);
      const pair = parseKeys(text);
      if (typeof pair === "string") {
        throw new AskUserError(
          "store_failure",
          `The Web Push keys in Redis (${keys.vapid}) can't be used: ${pair}. Restore the value, or ` +
            `delete the key (redis-cli DEL ${keys.vapid}) to make new keys at the next start (every ` +
            "browser then has to press Notify me again).",
        );
      }
      return { ...pair, path: undefined, redisKey: keys.vapid, created };
    },
    subscriptions: {
      path: undefined,
      /**
       * Read at most every {@link LIST_FRESH_MS} (every instance hears every new question: without it
       * each would ask Redis for the list on each one); this instance's own changes are seen at once.
       */
      list() {
        const at = now();
        if (!cached || at >= cached.until) {
          const list = read();
          cached = { list, until: at + LIST_FRESH_MS };
          list.catch(() => {
            if (cached?.list === list) cached = undefined; // not kept: the next call asks again
          });
        }
        return cached.list;
      },
      async add(subscription) {
        const json = JSON.stringify({ ...subscription, createdAt: now() });
        const added = await state.addSubscription(subscription.endpoint, json, MAX_SUBSCRIPTIONS);
        cached = undefined;
        const replaced =
          added.replaced === undefined ? "none" : storedSubscription(parseJson(added.replaced));
        return typeof replaced === "string"
          ? { renewed: added.renewed }
          : { renewed: added.renewed, replaced };
      },
      async remove(endpoint) {
        const removed = await state.removeSubscription(endpoint);
        cached = undefined;
        return removed;
      },
    },
    async claim(id, ttlMs) {
      try {
        return await state.claimPush(id, ttlMs);
      } catch (error) {
        logger.warn(
          { question: id, err: describeError(error) },
          "could not ask Redis whether another instance pushes this question; pushing it",
        );
        return true;
      }
    },
  };
}

/** The value of a JSON text; undefined when it is not JSON (then refused as a subscription). */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
