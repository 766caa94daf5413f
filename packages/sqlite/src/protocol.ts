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

/**
 * Main thread → writer thread. Groups are sent as they form; the writer answers each, in order, and
 * commits those that reached it while it was busy in one transaction.
 */
export type ToWriter = { type: "group"; id: number; ops: WriteOp[] } | { type: "close" };

/** One group's answer inside a transaction's message: its outcomes, or the error that stopped them all. */
export type GroupAnswer =
  | { id: number; ok: true; outcomes: WriteOutcome[] }
  | { id: number; ok: false; error: ErrorShape };

/**
 * Writer thread → main thread. The groups committed in one transaction are answered in one message
 * (with the writer's counts as of that commit).
 */
export type FromWriter =
  | { type: "ready" }
  | { type: "groups"; answers: GroupAnswer[]; stats: WriterStats }
  | { type: "fatal"; error: ErrorShape }
  | { type: "closed" };

/** What the worker is started with (`workerData`). */
export interface WriterOptions {
  path: string;
  busyTimeoutMs: number;
}
