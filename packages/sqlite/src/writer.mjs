// @ts-check
/**
 * The store's writes, carried out in groups: every write that arrived together is done inside ONE
 * `BEGIN IMMEDIATE … COMMIT` (one fsync for the group), in order, so every compare-and-set is decided on
 * its own against the rows as the writes before it in the group left them. A write that fails is undone
 * alone: the group is then carried out again with a savepoint around each write (savepoints are not
 * free — SQLite copies every page a savepoint touches — so they are only paid for when a write fails).
 *
 * Plain JavaScript (typed through JSDoc, checked by tsc) so that the writer thread loads it without a
 * TypeScript loader; `store.ts` also runs it on the main thread for `:memory:` databases.
 */
/** @import { Database } from "better-sqlite3" */
/** @import { ErrorShape, RecordRows, WriteOp, WriteValue, Writer, WriterStats } from "./protocol.ts" */

/** Records a dedupe key (`firstSeen`): changes one row when the key is new or its mark has run out. */
export const SEE_SQL = `INSERT INTO seen_keys (key, expires_at) VALUES (@key, @expires)
  ON CONFLICT (key) DO UPDATE SET expires_at = excluded.expires_at WHERE seen_keys.expires_at <= @now`;

/**
 * The columns copied out of the record for queries (`status` first: a compare-and-set returns it).
 * @type {readonly ("status" | "run_id" | "target_channel" | "target_conversation" | "created_at" | "expires_at" | "needs_repair")[]}
 */
const COPIED = [
  "status",
  "run_id",
  "target_channel",
  "target_conversation",
  "created_at",
  "expires_at",
  "needs_repair",
];

/**
 * Whether `have` (rows read back) holds the same rows as `wanted`, compared as sets by `key`. A
 * question has a token or two and a delivery or two: those are compared directly, more through a set.
 * @template T
 * @param {readonly T[]} have
 * @param {readonly T[]} wanted
 * @param {(row: T) => string} key
 */
function sameRows(have, wanted, key) {
  if (have.length !== wanted.length) return false;
  if (have.length === 0) return true;
  if (have.length === 1) return key(/** @type {T} */ (have[0])) === key(/** @type {T} */ (wanted[0]));
  const set = new Set(have.map(key));
  return wanted.every((row) => set.has(key(row)));
}

/**
 * A message index row as one string (each part after its length, so that no two rows share one).
 * @param {readonly string[]} message `[channel, conversation, messageId]`
 */
const messageKey = ([channel = "", conversation = "", messageId = ""]) =>
  `${channel.length}:${channel}${conversation.length}:${conversation}${messageId}`;

/**
 * Sets a write connection up: busy wait, WAL, `synchronous = FULL`, foreign keys (cascades of prune),
 * CHECK constraints skipped (see below).
 * @param {Database} db
 * @param {number} busyTimeoutMs
 */
export function configureWriter(db, busyTimeoutMs) {
  db.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  db.pragma("foreign_keys = ON");
  // `questions.record` is declared `CHECK (json_valid(record))`; every record this store writes is made
  // by JSON.stringify on the main thread, so re-parsing it in SQLite on every write proves nothing (it
  // cost 5 – 10 % of the writer's time per write). Other connections to the file still check it.
  db.pragma("ignore_check_constraints = ON");
}

/**
 * An error as it crosses threads.
 * @param {unknown} error
 * @returns {ErrorShape}
 */
export function errorShape(error) {
  if (!(error instanceof Error)) return { name: "Error", message: String(error) };
  const code = /** @type {{ code?: unknown }} */ (error).code;
  return typeof code === "string"
    ? { name: error.name, message: error.message, code }
    : { name: error.name, message: error.message };
}

/**
 * Prepares the write statements on `db` (migrated, set up by {@link configureWriter}).
 * @param {Database} db
 * @returns {Writer}
 */
export function createWriter(db) {
  // Parameters by position, not by name: binding an object looks up each name in it.
  const insert = db.prepare(`
    INSERT INTO questions (id, version, status, run_id, target_channel, target_conversation, created_at,
      expires_at, needs_repair, record)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (id) DO NOTHING`);
  const current = db.prepare(`SELECT ${COPIED.join(", ")} FROM questions WHERE id = ? AND version = ?`).raw();
  /**
   * The UPDATE of a compare-and-set, one per set of copied columns that change (prepared on first use).
   * SQLite rewrites an index row only when the UPDATE sets one of the index's columns, so an answer
   * (status, deadline, record) leaves the indexes by creation time, run and conversation alone.
   * @type {Map<number, import("better-sqlite3").Statement>}
   */
  const updates = new Map();
  /**
   * Its parameters by position: the version, the changing columns in `COPIED` order, the record, the
   * id, the expected version.
   * @param {number} changed bit i set: `COPIED[i]` changes
   */
  const updateOf = (changed) => {
    let statement = updates.get(changed);
    if (!statement) {
      const set = COPIED.filter((_, i) => changed & (1 << i)).map((column) => `${column} = ?`);
      statement = db.prepare(
        `UPDATE questions SET ${["version = ?", ...set, "record = ?"].join(", ")}
         WHERE id = ? AND version = ?`,
      );
      updates.set(changed, statement);
    }
    return statement;
  };
  const deleteTokens = db.prepare("DELETE FROM question_tokens WHERE question_id = ?");
  const deleteMessages = db.prepare("DELETE FROM question_messages WHERE question_id = ?");
  // A token or message is owned by the record written last, as in the memory store.
  const insertToken = db.prepare("INSERT OR REPLACE INTO question_tokens (token, question_id) VALUES (?, ?)");
  const insertMessage = db.prepare(
    "INSERT OR REPLACE INTO question_messages (channel, conversation, message_id, question_id) VALUES (?, ?, ?, ?)",
  );
  // Every status but pending has ended (as in the memory store); the same words as the partial
  // index `questions_ended_by_expiry`, so that SQLite uses it.
  const prune = db.prepare(
    `DELETE FROM questions WHERE id IN (
       SELECT id FROM questions WHERE status <> 'pending' AND expires_at < ? LIMIT ?)`,
  );
  const see = db.prepare(SEE_SQL);
  const lease = db.prepare(
    `INSERT INTO leases (name, holder, expires_at) VALUES (@name, @holder, @expires)
     ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
     WHERE leases.holder = excluded.holder OR leases.expires_at <= @now`,
  );
  const release = db.prepare("DELETE FROM leases WHERE name = ? AND holder = ?");
  const forget = db.prepare("DELETE FROM seen_keys WHERE expires_at <= ?");

  const tokensOf = db.prepare("SELECT token FROM question_tokens WHERE question_id = ?").pluck();
  const messagesOf = db
    .prepare("SELECT channel, conversation, message_id FROM question_messages WHERE question_id = ?")
    .raw();

  /**
   * A compare-and-set's index rows: rewritten only when they differ from what is stored (a token or a
   * message another record took over counts as differing, and comes back to this one, written last).
   * Tokens never change after a question is created and messages only when it is delivered, so most
   * compare-and-sets (an answer, a draft, a claim) read two short index ranges instead of rewriting them.
   * @param {RecordRows} rows
   */
  function reindex({ row, tokens, messages }) {
    const storedTokens = /** @type {string[]} */ (tokensOf.all(row.id));
    if (!sameRows(storedTokens, tokens, String)) {
      deleteTokens.run(row.id);
      for (const token of tokens) insertToken.run(token, row.id);
    }
    const storedMessages = /** @type {string[][]} */ (messagesOf.all(row.id));
    if (!sameRows(storedMessages, messages, messageKey)) {
      deleteMessages.run(row.id);
      for (const [channel, conversation, messageId] of messages)
        insertMessage.run(channel, conversation, messageId, row.id);
    }
  }

  /** @param {RecordRows} rows */
  function index({ row, tokens, messages }) {
    for (const token of tokens) insertToken.run(token, row.id);
    for (const [channel, conversation, messageId] of messages)
      insertMessage.run(channel, conversation, messageId, row.id);
  }

  /**
   * One write, inside the group's transaction.
   * @param {WriteOp} op
   * @returns {WriteValue}
   */
  const write = (op) => {
    switch (op.kind) {
      case "create": {
        const { row } = op;
        const created = insert.run(
          row.id,
          row.version,
          row.status,
          row.run_id,
          row.target_channel,
          row.target_conversation,
          row.created_at,
          row.expires_at,
          row.needs_repair,
          row.record,
        );
        if (created.changes === 0) return false;
        index(op);
        return true;
      }
      case "compareAndSet": {
        const { row } = op;
        const stored = /** @type {unknown[] | undefined} */ (current.get(row.id, op.expected));
        if (stored === undefined) return null;
        /** @type {unknown[]} */
        const values = [row.version];
        let changed = 0;
        for (let i = 0; i < COPIED.length; i++) {
          const value = row[/** @type {(typeof COPIED)[number]} */ (COPIED[i])];
          if (stored[i] !== value) {
            changed |= 1 << i;
            values.push(value);
          }
        }
        values.push(row.record, row.id, op.expected);
        if (updateOf(changed).run(values).changes !== 1) return null;
        reindex(op);
        return /** @type {string} */ (stored[0]);
      }
      // Named parameters, bound from the write itself (its other properties are not parameters).
      case "see":
        return see.run(op).changes === 1;
      case "lease":
        return lease.run(op).changes === 1;
      case "release":
        release.run(op.name, op.holder);
        return null;
      case "forget":
        return forget.run(op.now).changes;
      case "prune":
        return prune.run(op.before, op.limit).changes;
    }
  };
  /** One write in its own savepoint (better-sqlite3 nests a transaction as a savepoint). */
  const writeAlone = db.transaction(write);

  /** @type {WriterStats} */
  const stats = { writes: 0, transactions: 0, largestGroup: 0 };

  /** Set when a write of the fast path failed with the transaction still open (it can be redone). */
  let writeFailed = false;

  // IMMEDIATE: take the write lock before reading, so a peer's commit cannot slip in between a
  // compare-and-set's read and its write (a deferred transaction would fail with SQLITE_BUSY_SNAPSHOT).
  const group = db.transaction((/** @type {WriteOp[]} */ ops) =>
    ops.map((op) => {
      try {
        return /** @type {const} */ ({ ok: true, value: write(op) });
      } catch (error) {
        writeFailed = db.inTransaction;
        throw error;
      }
    }),
  );
  const carefulGroup = db.transaction((/** @type {WriteOp[]} */ ops) =>
    ops.map((op) => {
      try {
        return /** @type {const} */ ({ ok: true, value: writeAlone(op) });
      } catch (error) {
        // The savepoint was rolled back. Some errors (disk full, I/O) end the whole transaction: then
        // nothing of the group can be kept, and the group fails as one.
        if (!db.inTransaction) throw error;
        return /** @type {const} */ ({ ok: false, error: errorShape(error) });
      }
    }),
  );

  /** @param {WriteOp[]} ops */
  function commit(ops) {
    writeFailed = false;
    try {
      return group.immediate(ops);
    } catch (error) {
      // Nothing of the group was kept. If one write failed on its own, do the group again, each write
      // in a savepoint, so that only that write fails; otherwise (no lock, disk full…) the group fails.
      if (!writeFailed) throw error;
      return carefulGroup.immediate(ops);
    }
  }

  return {
    run(ops) {
      // A group of dedupe marks only ("seen this platform update") commits without its own fsync: in WAL
      // mode the next durable commit (the answer it leads to, within milliseconds) puts it on disk too. A
      // power cut in between loses the mark only, and handling that update again is then right.
      const marksOnly = ops.every((op) => op.kind === "see");
      if (marksOnly) db.pragma("synchronous = NORMAL");
      try {
        const outcomes = commit(ops);
        stats.transactions++;
        stats.writes += ops.length;
        stats.largestGroup = Math.max(stats.largestGroup, ops.length);
        return { ok: true, outcomes, stats: { ...stats } };
      } catch (error) {
        return { ok: false, error: errorShape(error), stats: { ...stats } };
      } finally {
        if (marksOnly) db.pragma("synchronous = FULL");
      }
    },
  };
}

// What crosses between the threads, for `writer-thread.ts` (the worker imports it from `wire.mjs`).
export { decodeAnswers, decodeGroup, encodeAnswers, encodeGroup } from "./wire.mjs";
