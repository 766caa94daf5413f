import { AskUserError, type AskUserLogger, consoleLogger } from "@ask-user/core/store";
import type { RedisOptions } from "ioredis";
import {
  clientOptions,
  connect,
  DEFAULT_COMMAND_TIMEOUT_MS,
  quit,
  reportOutages,
  storeFailure,
} from "./connection.ts";
import { DEFAULT_KEY_PREFIX } from "./keys.ts";

/** Options of {@link createRedisPushState}. */
export interface RedisPushStateOptions {
  /** `redis://…` or `rediss://…`, the same server as the gateway's `createRedisStore`. */
  url?: string;
  /** ioredis client options over `url` (not `keyPrefix`: use `keyPrefix` below). */
  redis?: Omit<RedisOptions, "keyPrefix">;
  /** The namespace, the same as the store's (default "ask-user:"). */
  keyPrefix?: string;
  /** A command not answered within this time fails with `store_failure`. Default 5000. */
  commandTimeoutMs?: number;
  /** Where connection trouble is reported. Default: `consoleLogger` (stderr). */
  logger?: AskUserLogger;
}

/** The keys of the Web Push state under one prefix `P`. */
export interface PushKeys {
  /** String: the VAPID key pair's JSON, shared by every instance (written once, SET NX). */
  readonly vapid: string;
  /** Hash: subscription endpoint → the subscription's JSON (with its `createdAt`, epoch ms). */
  readonly subscriptions: string;
  /** String with a TTL: the new question `id` was pushed (or is being pushed) by one instance. */
  sent(id: string): string;
}

/** The Web Push keys under `prefix`. */
export function pushKeysFor(prefix: string): PushKeys {
  return {
    vapid: `${prefix}push:vapid`,
    subscriptions: `${prefix}push:subscriptions`,
    sent: (id) => `${prefix}push:sent:${id}`,
  };
}

/**
 * What several gateway instances share for Web Push: one VAPID key pair, the browsers' subscriptions,
 * and who pushes each new question. Values are the caller's JSON texts; the store only needs a
 * subscription's numeric `createdAt` (which one is the oldest).
 */
export interface RedisPushState {
  readonly keyPrefix: string;
  readonly keys: PushKeys;
  /**
   * The shared VAPID key pair's JSON: `candidate` is stored when there is none yet (SET NX) and then
   * `created` is true; otherwise the stored one is returned, so every instance gets the same pair.
   */
  vapidKeys(candidate: string): Promise<{ text: string; created: boolean }>;
  /** Every stored subscription's JSON (in no particular order). */
  listSubscriptions(): Promise<string[]>;
  /**
   * Stores the subscription of `endpoint` (replacing the one of the same endpoint, if any), atomically
   * making room first: while `max` or more others are stored, the one with the smallest `createdAt` is
   * removed. `renewed`: that endpoint was stored already; `replaced`: the JSON of one removed for room.
   */
  addSubscription(
    endpoint: string,
    json: string,
    max: number,
  ): Promise<{ renewed: boolean; replaced?: string }>;
  /** Removes the subscription of `endpoint` for every instance; false when there was none. */
  removeSubscription(endpoint: string): Promise<boolean>;
  /**
   * True for exactly one caller among all instances per question `id` within `ttlMs` (SET NX PX): the
   * one that pushes it. Rejects with `store_failure` when Redis can't be asked.
   */
  claimPush(id: string, ttlMs: number): Promise<boolean>;
  /** QUITs the connection; later calls reject with `AskUserError("closed")`. */
  close(): Promise<void>;
}

/**
 * KEYS[1] subscriptions hash · ARGV[1] endpoint · [2] JSON · [3] max. Returns { renewed (0/1), the JSON
 * removed for room or false }. Bounded: at most as many removals as there were subscriptions.
 */
const ADD_SUBSCRIPTION = `
local renewed = redis.call('HDEL', KEYS[1], ARGV[1])
local replaced = false
local max = tonumber(ARGV[3])
local all = redis.call('HGETALL', KEYS[1])
local count = #all / 2
while count >= max and count > 0 do
  local oldest, oldestAt, oldestIndex = nil, nil, nil
  for i = 1, #all, 2 do
    if all[i] then
      local ok, value = pcall(cjson.decode, all[i + 1])
      local at = 0
      if ok and type(value) == 'table' and type(value.createdAt) == 'number' then at = value.createdAt end
      if oldestAt == nil or at < oldestAt or (at == oldestAt and all[i] < oldest) then
        oldest, oldestAt, oldestIndex = all[i], at, i
      end
    end
  end
  redis.call('HDEL', KEYS[1], oldest)
  replaced = all[oldestIndex + 1]
  all[oldestIndex] = false
  count = count - 1
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return { renewed, replaced }
`;

/**
 * Opens the Web Push state on Redis (one connection), shared by every gateway instance on the same
 * server and `keyPrefix`. Every failure rejects with `AskUserError("store_failure")`, the cause kept.
 *
 * @example
 * const push = createRedisPushState({ url: "redis://127.0.0.1:6379" });
 * const { text } = await push.vapidKeys(JSON.stringify(freshKeys)); // the same pair on every instance
 */
export function createRedisPushState(options: RedisPushStateOptions = {}): RedisPushState {
  const keyPrefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
  const commandTimeoutMs = options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
  const logger = options.logger ?? consoleLogger;
  const keys = pushKeysFor(keyPrefix);
  const config = clientOptions(options, commandTimeoutMs);
  const client = connect(options.url, config);
  const label = `Redis push state ${keyPrefix}`;
  let closed = false;
  reportOutages(client, { keyPrefix, connection: "push" }, logger, () => closed);

  async function use<T>(what: string, work: () => Promise<T>): Promise<T> {
    if (closed) throw new AskUserError("closed", `The ${label} is closed.`);
    try {
      return await work();
    } catch (error) {
      if (closed) throw new AskUserError("closed", `The ${label} was closed during the call.`);
      throw storeFailure(label, what, error);
    }
  }

  return {
    keyPrefix,
    keys,
    vapidKeys(candidate) {
      return use("read the VAPID keys", async () => {
        if ((await client.set(keys.vapid, candidate, "NX")) === "OK")
          return { text: candidate, created: true };
        const text = await client.get(keys.vapid);
        if (text === null) throw new Error(`${keys.vapid} vanished while it was read`);
        return { text, created: false };
      });
    },
    listSubscriptions() {
      return use("read the push subscriptions", () => client.hvals(keys.subscriptions));
    },
    addSubscription(endpoint, json, max) {
      return use("add a push subscription", async () => {
        const [renewed, replaced] = (await client.eval(
          ADD_SUBSCRIPTION,
          1,
          keys.subscriptions,
          endpoint,
          json,
          String(Math.max(1, Math.floor(max))),
        )) as [number, string | null];
        return typeof replaced === "string"
          ? { renewed: renewed === 1, replaced }
          : { renewed: renewed === 1 };
      });
    },
    removeSubscription(endpoint) {
      return use(
        "remove a push subscription",
        async () => (await client.hdel(keys.subscriptions, endpoint)) > 0,
      );
    },
    claimPush(id, ttlMs) {
      return use(`claim the push of ${id}`, async () => {
        const ttl = Math.max(1, Math.ceil(ttlMs));
        return (await client.set(keys.sent(id), "1", "PX", ttl, "NX")) === "OK";
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      await quit(client);
    },
  };
}
