import { AskUserError, type AskUserLogger, type QuestionRecord } from "@ask-user/core/store";
import { Redis } from "ioredis";
import { afterEach } from "vitest";
import { createRedisStore, type RedisStore, type RedisStoreOptions } from "../src/index.ts";

/** The next version of `record`, changed by `change`. */
export function bump(record: QuestionRecord, change: (r: QuestionRecord) => void): QuestionRecord {
  const next = structuredClone(record);
  change(next);
  next.version = record.version + 1;
  return next;
}

export const rejectsWith = (code: string) => (error: unknown) =>
  error instanceof AskUserError && error.code === code;

/** A logger that keeps what it was told, so tests can assert on it and the output stays quiet. */
export function recordingLogger() {
  const lines: Array<{ level: string; message: string; details: Record<string, unknown> }> = [];
  const logger: AskUserLogger & { lines: typeof lines } = {
    lines,
    warn: (details, message) => lines.push({ level: "warn", message, details }),
    error: (details, message) => lines.push({ level: "error", message, details }),
  };
  return logger;
}

/**
 * Opens stores and plain clients for a test file and closes them after each test. `open` waits until
 * the store hears changes, so a write made right after it reaches its subscribers.
 */
export function connections() {
  const stores: RedisStore[] = [];
  const clients: Redis[] = [];
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    for (const client of clients.splice(0)) client.disconnect();
  });
  return {
    async open(options: RedisStoreOptions): Promise<RedisStore> {
      const store = createRedisStore({ logger: recordingLogger(), ...options });
      stores.push(store);
      await store.ready;
      return store;
    },
    /** A plain ioredis client, to look at (or damage) what the store wrote. */
    client(url: string): Redis {
      const client = new Redis(url, { lazyConnect: false });
      clients.push(client);
      return client;
    },
  };
}
