import type { QuestionStore } from "@ask-user/core";
import { createRedisPushState, createRedisStore, type RedisPushState } from "@ask-user/redis";
import { createSqliteStore } from "@ask-user/sqlite";
import type { Logger } from "pino";
import type { GatewayConfig } from "./config.ts";
import { lockStoreFile } from "./store-lock.ts";

/** The gateway's store and how to close it (a caller's own store is left open). */
export interface GatewayStore {
  store: QuestionStore;
  /** Closes the store the gateway opened and releases the SQLite file's lock; nothing for a caller's store. */
  close(): Promise<void>;
  /** Writes the port into the SQLite file's lock (what a second gateway's refusal names). */
  setPort(port: number): void;
  /** With Redis: the Web Push state every instance shares (closed with the store). */
  push?: RedisPushState;
}

/**
 * The store the configuration names: the caller's own (`given`), SQLite (one gateway per file, refused
 * before the file is opened when another holds its lock) or Redis (several instances sharing it).
 */
export async function openGatewayStore(
  config: GatewayConfig,
  logger: Logger,
  given?: QuestionStore,
): Promise<GatewayStore> {
  if (given) return { store: given, close: async () => undefined, setPort: () => undefined };
  if (config.redisUrl !== undefined) {
    const store = createRedisStore({ url: config.redisUrl, logger });
    try {
      await store.ready;
    } catch (error) {
      await store.close().catch(() => undefined);
      throw error;
    }
    const push = createRedisPushState({ url: config.redisUrl, logger });
    const close = async () => {
      await Promise.all([store.close(), push.close()]);
    };
    return { store, close, setPort: () => undefined, push };
  }
  const lock = lockStoreFile(config.dbPath);
  let store: QuestionStore;
  try {
    store = createSqliteStore({ path: config.dbPath });
  } catch (error) {
    lock.release();
    throw error;
  }
  return {
    store,
    async close() {
      try {
        await store.close();
      } finally {
        lock.release();
      }
    },
    setPort: (port) => lock.setPort(port),
  };
}

/** Ended questions older than the retention period deleted now and every hour; `stop` ends the timer. */
export function startPruning(
  store: QuestionStore,
  config: Pick<GatewayConfig, "retentionDays">,
  logger: Logger,
  now: () => number,
): { prune(): Promise<number>; stop(): void } {
  const prune = async (): Promise<number> => {
    if (config.retentionDays === 0) return 0;
    const deleted = await store.prune(now() - config.retentionDays * DAY_MS);
    if (deleted > 0) logger.info({ deleted, retentionDays: config.retentionDays }, "pruned ended questions");
    return deleted;
  };
  const run = () => {
    prune().catch((err: unknown) => logger.warn({ err }, "pruning ended questions failed"));
  };
  run();
  const timer = setInterval(run, PRUNE_INTERVAL_MS);
  timer.unref();
  return { prune, stop: () => clearInterval(timer) };
}

export const DAY_MS = 86_400_000;
const PRUNE_INTERVAL_MS = 3_600_000;
