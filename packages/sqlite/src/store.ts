import { dirname, resolve } from "node:path";
import {
  AskUserError,
  type AskUserLogger,
  consoleLogger,
  describeError,
  type ListPage,
  type QuestionFilter,
  type QuestionRecord,
  type QuestionStatus,
  type QuestionStore,
  type StoreChange,
} from "@ask-user/core/store";
import Sqlite from "better-sqlite3";
import { makeFolders } from "./folders.ts";
import { createGroupCommit, type GroupRunner } from "./group-commit.ts";
import { migrate } from "./migrations.ts";
import type { ErrorShape, WriteOp, WriterStats, WriteValue } from "./protocol.ts";
import { openQuickMarks, type QuickMarks } from "./quick-marks.ts";
import { recordWrite } from "./rows.ts";
import { prepareReads, type ReadStatements } from "./statements.ts";
import { configureWriter, createWriter } from "./writer.mjs";
import { startWriterThread } from "./writer-thread.ts";

/** Retention deletes this many records per write. */
const PRUNE_BATCH = 500;
/** At most this many writes share one transaction. */
const MAX_GROUP = 512;
const DEFAULT_BUSY_TIMEOUT_MS = 30_000;
/**
 * How long a read on the main thread may wait. In WAL mode readers never wait for the writer; only
 * rare moments (recovering the WAL after a crash) make them wait, and the event loop waits with them.
 */
const READ_BUSY_TIMEOUT_MS = 1_000;

/** Options of {@link createSqliteStore}. */
export interface SqliteStoreOptions {
  /** The database file (parent folders are created), or ":memory:" for a private in-memory database. */
  path: string;
  /**
   * How long a write waits for another connection's write lock before failing with a store failure.
   * The wait happens on the writer thread: the event loop keeps running meanwhile. Default 30000.
   */
  busyTimeoutMs?: number;
  /** Where a subscriber that throws is reported. Default: `consoleLogger` (stderr). */
  logger?: AskUserLogger;
}

/** How many writes the store has committed, and in how many transactions. */
export type SqliteStoreStats = WriterStats;

/** A `QuestionStore` on one SQLite file. */
export interface SqliteStore extends QuestionStore {
  /** The file it was opened on, as given. */
  readonly path: string;
  /** Writes committed so far and the transactions that held them (group commit). */
  stats(): SqliteStoreStats;
}

function isInMemory(path: string): boolean {
  return path === "" || path === ":memory:";
}

/** A writer error back as the error it was (a `SqliteError` with its code). */
function revive(shape: ErrorShape): Error {
  if (shape.name === "SqliteError" && shape.code !== undefined) {
    return new Sqlite.SqliteError(shape.message, shape.code);
  }
  const error = new Error(shape.message);
  error.name = shape.name;
  return error;
}

/**
 * Opens (creating if needed) a durable `QuestionStore` on a SQLite file: WAL journal, `synchronous = FULL`
 * (every acknowledged write is on disk before its promise resolves), versioned schema migrated at open.
 * Writes are carried out by a writer thread in groups — the writes made while the previous group was
 * being committed share one transaction and one fsync — so neither waiting for the write lock nor the
 * fsync blocks the event loop. Reads run on the calling thread (WAL readers never wait for the writer).
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
  const inMemory = isInMemory(path);
  const label = inMemory ? ":memory:" : path;
  const busyTimeoutMs = Math.max(0, Math.floor(options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS));
  const fail = (what: string, cause: unknown): AskUserError => {
    if (cause instanceof AskUserError) return cause;
    const reason = cause instanceof Error ? cause.message : String(cause);
    return new AskUserError("store_failure", `SQLite store ${label}: could not ${what}: ${reason}`, {
      cause,
    });
  };

  let db: Sqlite.Database;
  try {
    if (!inMemory) makeFolders(dirname(path));
    db = new Sqlite(path);
  } catch (error) {
    throw fail("open the database", error);
  }
  let reads: ReadStatements;
  let runner: GroupRunner;
  let marks: QuickMarks | undefined;
  try {
    // The pragmas first (busy_timeout before the others): the migration may wait for another process's
    // lock. A file already at the current version is opened without taking the write lock.
    configureWriter(db, busyTimeoutMs);
    migrate(db, undefined, label);
    reads = prepareReads(db);
    if (inMemory) {
      const writer = createWriter(db); // private to this connection: no other writer to wait for
      runner = {
        run: async (ops) => writer.run(ops),
        pipeline: 1,
        busy: () => undefined,
        close: async () => undefined,
      };
    } else {
      db.pragma(`busy_timeout = ${READ_BUSY_TIMEOUT_MS}`);
      marks = openQuickMarks(path);
      runner = startWriterThread({ path: resolve(path), busyTimeoutMs });
    }
  } catch (error) {
    marks?.close();
    db.close();
    throw fail("prepare the database", error);
  }

  const writes = createGroupCommit(runner, MAX_GROUP);
  const listeners = new Set<(change: StoreChange) => void>();
  let closing: Promise<void> | undefined;

  const closedError = () => new AskUserError("closed", `The SQLite store ${label} is closed.`);

  function read<T>(what: string, work: (s: ReadStatements) => T): T {
    if (closing) throw closedError();
    try {
      return work(reads);
    } catch (error) {
      throw fail(what, error);
    }
  }

  /**
   * Queues a write. Once it is on disk, `decide` turns its value into the method's result (and tells the
   * subscribers), synchronously and in write order; the caller's promise settles with no further hop,
   * as when the store wrote synchronously (callers that race their own continuations keep their order).
   */
  function write<T>(what: string, op: WriteOp, decide: (value: WriteValue) => T): Promise<T> {
    if (closing) return Promise.reject(closedError());
    return writes.write(op, (outcome) => {
      if (!outcome.ok) throw fail(what, revive(outcome.error));
      return decide(outcome.value);
    });
  }

  /** Tells the subscribers about a committed write, each with its own parsed copy. */
  function emit(json: string, previousStatus: StoreChange["previousStatus"]): void {
    for (const listener of listeners) {
      const record = JSON.parse(json) as QuestionRecord;
      try {
        listener({ record, previousStatus });
      } catch (error) {
        logger.error({ questionId: record.id, err: describeError(error) }, "store subscriber failed");
      }
    }
  }

  const parse = (json: string | undefined): QuestionRecord | undefined =>
    json === undefined ? undefined : (JSON.parse(json) as QuestionRecord);

  return {
    path,
    stats: () => writes.stats(),
    create(record) {
      let written: ReturnType<typeof recordWrite>;
      try {
        written = recordWrite(record);
      } catch (error) {
        return Promise.reject(error); // a record JSON cannot hold
      }
      return write(`create question ${record.id}`, written.op, (created) => {
        if (created !== true)
          throw new AskUserError("store_conflict", `A question with id ${record.id} already exists.`);
        emit(written.json, undefined);
      });
    },
    async get(id) {
      return parse(read(`read question ${id}`, (s) => s.get.get(id)));
    },
    compareAndSet(expectedVersion, next) {
      if (closing) return Promise.reject(closedError());
      if (next.version !== expectedVersion + 1) return Promise.resolve(false);
      let written: ReturnType<typeof recordWrite>;
      try {
        written = recordWrite(next, expectedVersion);
      } catch (error) {
        return Promise.reject(error); // a record JSON cannot hold
      }
      return write(`update question ${next.id}`, written.op, (previous) => {
        if (typeof previous !== "string") return false;
        emit(written.json, previous as QuestionStatus);
        return true;
      });
    },
    async prune(before) {
      await write("forget old dedupe keys", { kind: "forget", now: Date.now() }, () => undefined);
      // In bounded batches: each is one short write, so others never wait long behind it.
      let deleted = 0;
      for (;;) {
        const op: WriteOp = { kind: "prune", before, limit: PRUNE_BATCH };
        const batch = await write("prune questions", op, Number);
        deleted += batch;
        if (batch < PRUNE_BATCH) return deleted;
      }
    },
    firstSeen(key, ttlMs) {
      if (closing) return Promise.reject(closedError());
      const now = Date.now();
      const op = { kind: "see", key, expires: now + ttlMs, now } as const;
      let quick: boolean | undefined;
      try {
        quick = marks?.see(op);
      } catch (error) {
        return Promise.reject(fail("record a key", error));
      }
      if (quick !== undefined) return Promise.resolve(quick);
      return write("record a key", op, (seen) => seen === true);
    },
    acquireLease(name, holder, ttlMs) {
      const now = Date.now();
      const op: WriteOp = { kind: "lease", name, holder, expires: now + ttlMs, now };
      return write(`take lease ${name}`, op, (held) => held === true);
    },
    releaseLease(name, holder) {
      return write(`release lease ${name}`, { kind: "release", name, holder }, () => undefined);
    },
    async leaseHolder(name) {
      return read(`read lease ${name}`, (s) => s.leaseHolder.get(name, Date.now()));
    },
    async list(filter: QuestionFilter = {}, page?: ListPage) {
      return read("list questions", (s) => s.list(filter, page)).map(
        (json) => JSON.parse(json) as QuestionRecord,
      );
    },
    async findByToken(token) {
      return parse(read("find a question by token", (s) => s.byToken.get(token)));
    },
    async findByMessage(channel, conversation, messageId) {
      return parse(
        read("find a question by message", (s) => s.byMessage.get(channel, conversation, messageId)),
      );
    },
    subscribe(listener) {
      if (closing) throw closedError();
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    close() {
      // Writes already made are carried out (and their subscribers told); new calls are refused.
      closing ??= (async () => {
        await writes.drain();
        listeners.clear();
        try {
          // The reader and the marks first, so the writer's connection is the last one and checkpoints
          // the WAL on its own thread.
          marks?.close();
          db.close();
        } finally {
          await runner.close();
        }
      })().catch((error: unknown) => {
        throw fail("close the database", error);
      });
      return closing;
    },
  };
}
