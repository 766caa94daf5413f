import { existsSync, mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import {
  AskUserError,
  type AskUserLogger,
  consoleLogger,
  type ListPage,
  type QuestionFilter,
  type QuestionRecord,
  type QuestionStore,
  type StoreChange,
} from "@ask-user/core";
import Sqlite from "better-sqlite3";
import { migrate } from "./migrations.ts";
import { prepareStatements, type Statements } from "./statements.ts";

/** Retention deletes this many records per transaction. */
const PRUNE_BATCH = 500;

/** Options of {@link createSqliteStore}. */
export interface SqliteStoreOptions {
  /** The database file (parent folders are created), or ":memory:" for a private in-memory database. */
  path: string;
  /** How long a write waits for another connection's write lock before failing. Default 5000. */
  busyTimeoutMs?: number;
  /** Where a subscriber that throws is reported. Default: `consoleLogger` (stderr). */
  logger?: AskUserLogger;
}

/** A `QuestionStore` on one SQLite file. */
export interface SqliteStore extends QuestionStore {
  /** The file it was opened on, as given. */
  readonly path: string;
}

const DEFAULT_BUSY_TIMEOUT_MS = 5000;

function isInMemory(path: string): boolean {
  return path === "" || path === ":memory:";
}

/**
 * Opens (creating if needed) a durable `QuestionStore` on a SQLite file: WAL journal, `synchronous = FULL`
 * (every acknowledged write is on disk before the promise resolves), versioned schema migrated at open.
 * Subscribers hear about this instance's writes only: run one gateway per file (use Redis for several).
 *
 * Throws `AskUserError("store_failure")` if the file cannot be opened or was written by a newer schema.
 *
 * @example
 * import { createAskUser } from "@ask-user/core";
 * import { createSqliteStore } from "@ask-user/sqlite";
 *
 * const store = createSqliteStore({ path: "./data/ask-user.db" });
 * const askUser = createAskUser({ store, channels: [] });
 */
export function createSqliteStore(options: SqliteStoreOptions): SqliteStore {
  const { path } = options;
  const logger = options.logger ?? consoleLogger;
  const label = isInMemory(path) ? ":memory:" : path;
  const fail = (what: string, cause: unknown): AskUserError => {
    if (cause instanceof AskUserError) return cause;
    const reason = cause instanceof Error ? cause.message : String(cause);
    return new AskUserError("store_failure", `SQLite store ${label}: could not ${what}: ${reason}`, {
      cause,
    });
  };

  let db: Sqlite.Database;
  try {
    if (!isInMemory(path)) makeFolders(dirname(path));
    db = new Sqlite(path);
  } catch (error) {
    throw fail("open the database", error);
  }
  let statements: Statements;
  try {
    // busy_timeout first: the other pragmas and the migration may wait for another process's lock.
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS))}`);
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = FULL");
    db.pragma("foreign_keys = ON");
    migrate(db, undefined, label);
    statements = prepareStatements(db);
  } catch (error) {
    db.close();
    throw fail("prepare the database", error);
  }

  const listeners = new Set<(change: StoreChange) => void>();
  let closed = false;

  function use<T>(what: string, work: (s: Statements) => T): T {
    if (closed) throw new AskUserError("closed", `The SQLite store ${label} is closed.`);
    try {
      return work(statements);
    } catch (error) {
      throw fail(what, error);
    }
  }

  function emit(json: string, previousStatus: StoreChange["previousStatus"]): void {
    // After the write has returned, in write order; each listener parses its own copy.
    queueMicrotask(() => {
      for (const listener of listeners) {
        const record = JSON.parse(json) as QuestionRecord;
        try {
          listener({ record, previousStatus });
        } catch (error) {
          logger.error({ questionId: record.id, err: String(error) }, "store subscriber failed");
        }
      }
    });
  }

  const parse = (json: string | undefined): QuestionRecord | undefined =>
    json === undefined ? undefined : (JSON.parse(json) as QuestionRecord);

  return {
    path,
    async create(record) {
      const json = JSON.stringify(record);
      const created = use(`create question ${record.id}`, (s) => s.create(record, json));
      if (!created)
        throw new AskUserError("store_conflict", `A question with id ${record.id} already exists.`);
      emit(json, undefined);
    },
    async get(id) {
      return parse(use(`read question ${id}`, (s) => s.get.get(id)));
    },
    async compareAndSet(expectedVersion, next) {
      if (next.version !== expectedVersion + 1) return use("check the store", () => false);
      const json = JSON.stringify(next);
      const previous = use(`update question ${next.id}`, (s) => s.compareAndSet(expectedVersion, next, json));
      if (previous === undefined) return false;
      emit(json, previous);
      return true;
    },
    async prune(before) {
      use("forget old dedupe keys", (s) => s.forget.run(Date.now()));
      // In bounded batches: each is one short write transaction, so others never wait long for the lock.
      let deleted = 0;
      for (;;) {
        const batch = use("prune questions", (s) => s.prune.run(before, PRUNE_BATCH).changes);
        deleted += batch;
        if (batch < PRUNE_BATCH) return deleted;
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
    async firstSeen(key, ttlMs) {
      const now = Date.now();
      return use("record a key", (s) => s.see.run({ key, expires: now + ttlMs, now }).changes === 1);
    },
    async acquireLease(name, holder, ttlMs) {
      const now = Date.now();
      return use(
        `take lease ${name}`,
        (s) => s.lease.run({ name, holder, expires: now + ttlMs, now }).changes === 1,
      );
    },
    async releaseLease(name, holder) {
      use(`release lease ${name}`, (s) => s.release.run(name, holder));
    },
    async list(filter: QuestionFilter = {}, page?: ListPage) {
      return use("list questions", (s) => s.list(filter, page)).map(
        (json) => JSON.parse(json) as QuestionRecord,
      );
    },
    async findByToken(token) {
      return parse(use("find a question by token", (s) => s.byToken.get(token)));
    },
    async findByMessage(channel, conversation, messageId) {
      return parse(
        use("find a question by message", (s) => s.byMessage.get(channel, conversation, messageId)),
      );
    },
    subscribe(listener) {
      use("subscribe", () => listeners.add(listener));
      return () => {
        listeners.delete(listener);
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      listeners.clear();
      try {
        db.close();
      } catch (error) {
        throw fail("close the database", error);
      }
    },
  };
}

/**
 * Creates `folder` and its missing parents one level at a time. (Node's recursive `mkdirSync` spins
 * forever on some virtual file systems such as `/proc`; this fails there with ENOENT at once.)
 */
function makeFolders(folder: string): void {
  const missing: string[] = [];
  let at = resolve(folder);
  while (!existsSync(at)) {
    missing.unshift(at);
    const parent = dirname(at);
    if (parent === at) break;
    at = parent;
  }
  for (const dir of missing) mkdirSync(dir);
}
