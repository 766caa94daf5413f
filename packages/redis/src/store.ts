import {
  AskUserError,
  type AskUserLogger,
  consoleLogger,
  type ListPage,
  type ListPosition,
  matchesFilter,
  type QuestionFilter,
  type QuestionRecord,
  type QuestionStore,
  TERMINAL_STATUSES,
} from "@ask-user/core/store";
import type { RedisOptions } from "ioredis";
import {
  clientOptions,
  connect,
  DEFAULT_COMMAND_TIMEOUT_MS,
  quit,
  reportOutages,
  storeFailure,
} from "./connection.ts";
import { startChangeFeed } from "./feed.ts";
import { DEFAULT_KEY_PREFIX, indexFor, keysFor } from "./keys.ts";
import { defineScripts } from "./scripts.ts";

/** Options of {@link createRedisStore}. */
export interface RedisStoreOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://…` (TLS). Default: ioredis' 127.0.0.1:6379. */
  url?: string;
  /**
   * ioredis client options, applied over `url` (host, port, password, tls, db, sentinels…). Its
   * `keyPrefix` is not supported: use `keyPrefix` below, which also names the change channel.
   */
  redis?: Omit<RedisOptions, "keyPrefix">;
  /** Namespace of every key and of the change channel. Default "ask-user:". */
  keyPrefix?: string;
  /** A command not answered within this time fails with `store_failure`. Default 5000. */
  commandTimeoutMs?: number;
  /** How many recent changes the change stream keeps for catching up after a reconnect. Default 1000. */
  changeLogLength?: number;
  /** Where connection trouble and a throwing subscriber are reported. Default: `consoleLogger` (stderr). */
  logger?: AskUserLogger;
}

/** A `QuestionStore` on Redis, shared by every process that uses the same server and `keyPrefix`. */
export interface RedisStore extends QuestionStore {
  readonly keyPrefix: string;
  /**
   * Resolves once both connections are up and changes are being received; rejects with
   * `AskUserError("store_failure")` if that takes longer than `commandTimeoutMs`. The store's methods
   * wait for this by themselves; await it to know a new instance hears every write from now on.
   */
  readonly ready: Promise<void>;
}

const DEFAULT_CHANGE_LOG_LENGTH = 1000;
/** The key layout this code writes (2: pending-per-conversation and ended-by-expiry indexes). */
const LAYOUT_VERSION = 2;
/** Retention deletes this many records per script run, so Redis never blocks for long. */
const PRUNE_BATCH = 200;

/**
 * Connects a `QuestionStore` to Redis, shared by several gateway instances: every write is one Lua
 * script (compare-and-set on the version, index updates, change published), and an answer written by
 * one instance reaches the subscribers — and so the waiting `ask()` — of every other instance.
 *
 * Opens two connections (commands, and a dedicated subscriber) and returns at once; calls wait until
 * both are ready. Redis errors reject with `AskUserError("store_failure")`, the error as `cause`.
 *
 * @example
 * import { createAskUser } from "@ask-user/core";
 * import { createRedisStore } from "@ask-user/redis";
 *
 * const store = createRedisStore({ url: "redis://127.0.0.1:6379" });
 * const askUser = createAskUser({ store, channels: [] });
 * // … on shutdown:
 * await askUser.close();
 * await store.close();
 */
export function createRedisStore(options: RedisStoreOptions = {}): RedisStore {
  const keyPrefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
  const commandTimeoutMs = options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
  const logger = options.logger ?? consoleLogger;
  const keys = keysFor(keyPrefix);
  const config = clientOptions(options, commandTimeoutMs);
  const command = connect(options.url, config);
  const name = config.connectionName;
  const subscriber = command.duplicate({
    autoResubscribe: false,
    ...(name === undefined ? {} : { connectionName: `${name}:changes` }),
  });
  const label = `Redis store ${keyPrefix}`;
  let closed = false;
  reportOutages(command, { keyPrefix, connection: "commands" }, logger, () => closed);
  reportOutages(subscriber, { keyPrefix, connection: "changes" }, logger, () => closed);
  const scripts = defineScripts(command, keys, options.changeLogLength ?? DEFAULT_CHANGE_LOG_LENGTH);
  const feed = startChangeFeed(command, subscriber, keys, logger);

  const fail = (what: string, cause: unknown): AskUserError => storeFailure(label, what, cause);

  function whenSynced(): Promise<void> {
    if (feed.isSynced()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(fail("connect", new Error(`not connected and subscribed after ${commandTimeoutMs} ms`))),
        commandTimeoutMs,
      );
      void feed.synced.then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  async function use<T>(what: string, work: () => Promise<T>): Promise<T> {
    if (closed) throw new AskUserError("closed", `The ${label} is closed.`);
    await whenSynced();
    try {
      return await work();
    } catch (error) {
      throw closed
        ? new AskUserError("closed", `The ${label} was closed during the call.`)
        : fail(what, error);
    }
  }

  const parse = (json: string | null): QuestionRecord | undefined =>
    json === null ? undefined : (JSON.parse(json) as QuestionRecord);

  /**
   * Older key layouts lack the per-conversation pending index and the ended-by-expiry index: rewrite
   * every record's index entries once, page by page (the only pass over all records, at upgrade).
   */
  async function upgradeLayout(): Promise<void> {
    if (Number(await command.get(keys.layout)) >= LAYOUT_VERSION) return;
    for (const status of ["pending", ...TERMINAL_STATUSES]) {
      let after: ListPosition | undefined;
      for (;;) {
        const page = (await scripts.list(keys.status(status), after, 500)).map(
          (json) => JSON.parse(json) as QuestionRecord,
        );
        for (const record of page) await scripts.reindex(record);
        const last = page.at(-1);
        if (!last || page.length < 500) break;
        after = { createdAt: last.createdAt, id: last.id };
      }
    }
    await command.set(keys.layout, String(LAYOUT_VERSION));
  }

  const ready = whenSynced().then(() =>
    upgradeLayout().catch((error: unknown) => {
      throw fail("upgrade the key layout", error);
    }),
  );
  ready.catch(() => undefined); // reported to whoever awaits it, not as an unhandled rejection

  return {
    keyPrefix,
    ready,
    async create(record) {
      const json = JSON.stringify(record);
      const previous = await use(`create question ${record.id}`, () => scripts.write(0, record, json));
      if (previous === null)
        throw new AskUserError("store_conflict", `A question with id ${record.id} already exists.`);
    },
    get(id) {
      return use(`read question ${id}`, async () => parse(await command.hget(keys.record(id), "r")));
    },
    compareAndSet(expectedVersion, next) {
      return use(`update question ${next.id}`, async () => {
        if (next.version !== expectedVersion + 1 || expectedVersion < 1) return false;
        return (await scripts.write(expectedVersion, next, JSON.stringify(next))) !== null;
      });
    },
    list(filter: QuestionFilter = {}, page: ListPage = {}) {
      return use("list questions", async () => {
        const index = indexFor(keys, filter);
        const read = (after: ListPosition | undefined, count: number) =>
          scripts
            .list(index, after, count)
            .then((jsons) => jsons.map((json) => JSON.parse(json) as QuestionRecord));
        if (page.limit === undefined)
          return (await read(page.after, 0)).filter((r) => matchesFilter(r, filter));
        // The index may hold records the rest of the filter drops: read on until the page is full.
        const limit = Math.max(0, Math.floor(page.limit));
        const out: QuestionRecord[] = [];
        let after = page.after;
        while (out.length < limit) {
          const asked = Math.max(limit - out.length, 32);
          const batch = await read(after, asked);
          for (const record of batch) {
            if (out.length < limit && matchesFilter(record, filter)) out.push(record);
          }
          const last = batch.at(-1);
          if (!last || batch.length < asked) break;
          after = { createdAt: last.createdAt, id: last.id };
        }
        return out;
      });
    },
    findByToken(token) {
      return use("find a question by token", async () => parse(await scripts.lookup(keys.token(token))));
    },
    findByMessage(channel, conversation, messageId) {
      return use("find a question by message", async () =>
        parse(await scripts.lookup(keys.message(channel, conversation, messageId))),
      );
    },
    prune(before) {
      return use("prune questions", async () => {
        let deleted = 0;
        for (;;) {
          const [removed, examined] = await scripts.prune(before, PRUNE_BATCH);
          deleted += removed;
          if (examined < PRUNE_BATCH) return deleted;
        }
      });
    },
    firstSeen(key, ttlMs) {
      return use("record a key", async () => {
        const set = await command.set(keys.seen(key), "1", "PX", Math.max(1, Math.ceil(ttlMs)), "NX");
        return set === "OK";
      });
    },
    acquireLease(name, holder, ttlMs) {
      return use(`take lease ${name}`, () => scripts.lease(keys.lease(name), holder, ttlMs));
    },
    releaseLease(name, holder) {
      return use(`release lease ${name}`, () => scripts.release(keys.lease(name), holder));
    },
    leaseHolder(name) {
      // The key expires with the lease (SET … PX), so a key that is there is a lease that holds.
      return use(`read lease ${name}`, async () => (await command.get(keys.lease(name))) ?? undefined);
    },
    subscribe(listener) {
      if (closed) throw new AskUserError("closed", `The ${label} is closed.`);
      feed.listeners.add(listener);
      return () => {
        feed.listeners.delete(listener);
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      feed.stop();
      await Promise.all([command, subscriber].map(quit));
    },
  };
}
