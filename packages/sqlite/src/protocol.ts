/**
 * What the main thread and the writer thread say to each other. The writer (`writer.mjs`, run by
 * `worker.mjs`) is plain JavaScript so that it loads in a worker thread without a TypeScript loader; it
 * takes its types from here through JSDoc.
 */

/** A `questions` row, worked out from the record on the main thread (see `rows.ts`). */
export interface QuestionRow {
  id: string;
  version: number;
  status: string;
  run_id: string | null;
  target_channel: string | null;
  target_conversation: string | null;
  created_at: number;
  expires_at: number;
  needs_repair: 0 | 1;
  /** The whole record as JSON. */
  record: string;
}

/** A record as the writer stores it: its row and the rows of its token and message indexes. */
export interface RecordRows {
  row: QuestionRow;
  tokens: string[];
  /** `[channel, conversation, messageId]` of each delivery. */
  messages: [string, string, string][];
}

/** One write. Each is decided on its own inside the group's transaction (a savepoint each). */
export type WriteOp =
  | ({ kind: "create" } & RecordRows)
  | ({ kind: "compareAndSet"; expected: number } & RecordRows)
  | { kind: "see"; key: string; expires: number; now: number }
  | { kind: "lease"; name: string; holder: string; expires: number; now: number }
  | { kind: "release"; name: string; holder: string }
  | { kind: "forget"; now: number }
  | { kind: "prune"; before: number; limit: number };

/**
 * What a write gave: `create` → true when created (false: the id exists); `compareAndSet` → the status
 * it replaced, or null when the version had moved on; `see`/`lease` → true when new / held;
 * `forget`/`prune` → rows deleted; `release` → null.
 */
export type WriteValue = boolean | number | string | null;

/** An error as it crosses threads (a `SqliteError` keeps its code). */
export interface ErrorShape {
  name: string;
  message: string;
  code?: string;
}

/** The outcome of one write in a committed group: its value, or the error that undid it alone. */
export type WriteOutcome = { ok: true; value: WriteValue } | { ok: false; error: ErrorShape };

/** How much the writer has done since it started. */
export interface WriterStats {
  /** Writes carried out (committed or refused), one per call. */
  writes: number;
  /** Transactions committed: several writes share one when they arrive together. */
  transactions: number;
  /** The most writes one transaction held. */
  largestGroup: number;
}

/** The group's outcome: one per write once committed, or the error that stopped the whole group. */
export type GroupResult =
  | { ok: true; outcomes: WriteOutcome[]; stats: WriterStats }
  | { ok: false; error: ErrorShape; stats: WriterStats };

/** Carries out groups of writes on one connection (`createWriter` in `writer.mjs`). */
export interface Writer {
  /** Carries out `ops` in one durable transaction; each outcome is final once this returns. */
  run(ops: WriteOp[]): GroupResult;
}

/** One value of a message between the threads: groups and answers are flat arrays of these. */
export type WireValue = string | number | boolean | null;

/**
 * A group as it crosses to the writer thread: ONE flat array of primitives, not objects (structured
 * clone pays per object and per property on both threads: measured, a group of 4 writes costs the main
 * thread about 5 µs less to hand off and the writer as much less to take in than as objects; a JSON or
 * length-prefixed string costs more than the flat array). Encoded by `encodeGroup`, decoded by
 * `decodeGroup` (`wire.mjs`, plain JavaScript so that the worker loads it). Layout:
 *
 *     group id, then each write: its kind code, then its fields
 *       0 create         id, version, status, run_id, target_channel, target_conversation, created_at,
 *                        expires_at, needs_repair, record, token count, tokens…,
 *                        message count, (channel, conversation, message id)…
 *       1 compareAndSet  expected, then the same as create
 *       2 see            key, expires, now
 *       3 lease          name, holder, expires, now
 *       4 release        name, holder
 *       5 forget         now
 *       6 prune          before, limit
 */
export type WireGroup = WireValue[];

/**
 * The answers of the groups committed in one transaction, as one flat array (`encodeAnswers`,
 * `decodeAnswers` in `wire.mjs`). Layout:
 *
 *     writes, transactions, largestGroup (the writer's counts as of that commit), then each group:
 *       its id, then its outcome count n and n outcomes, each  1, value  or  0, name, message, code
 *       or, when the whole group failed:  -1, name, message, code
 *     (`code` is null when the error has none.)
 */
export type WireAnswers = WireValue[];

/**
 * Main thread → writer thread. Groups are sent as they form; the writer answers each, in order, and
 * commits those that reached it while it was busy in one transaction. "close" comes last.
 */
export type ToWriter = WireGroup | "close";

/**
 * Writer thread → main thread. The groups committed in one transaction are answered in one message
 * (a {@link WireAnswers} array); the rest are rare.
 */
export type FromWriter =
  | WireAnswers
  | { type: "ready" }
  | { type: "fatal"; error: ErrorShape }
  | { type: "closed" };

/** What the worker is started with (`workerData`). */
export interface WriterOptions {
  path: string;
  busyTimeoutMs: number;
}
