import {
  type ListPage,
  needsRepair,
  type QuestionFilter,
  type QuestionRecord,
  type QuestionStatus,
} from "@ask-user/core";
import type { Database, Statement } from "better-sqlite3";

/** The store's SQL, prepared once per connection and reused for every call. */
export interface Statements {
  /** Inserts the record and its index rows; false when the id exists. */
  create(record: QuestionRecord, json: string): boolean;
  /** Writes `next` over `expectedVersion`; the status it replaced, or undefined when the version moved on. */
  compareAndSet(expectedVersion: number, next: QuestionRecord, json: string): QuestionStatus | undefined;
  /** JSON of the records matching the filter, oldest first, one page of them when asked. */
  list(filter: QuestionFilter, page?: ListPage): string[];
  get: Statement<[string], string>;
  byToken: Statement<[string], string>;
  byMessage: Statement<[string, string, string], string>;
  /** Deletes up to a batch of ended records whose deadline is before the cutoff (index rows cascade). */
  prune: Statement<[number, number]>;
  /** Records a key until `expires`, unless it is there and not expired: 1 change when it was new. */
  see: Statement<[{ key: string; expires: number; now: number }]>;
  /** Takes or renews a lease (name, holder, expires, now): 1 change when `holder` has it now. */
  lease: Statement<[{ name: string; holder: string; expires: number; now: number }]>;
  release: Statement<[string, string]>;
  /** Forgets dedupe keys that expired before the given time. */
  forget: Statement<[number]>;
}

/** The queried fields of a record, as bound to the `questions` columns. */
function columns(record: QuestionRecord, json: string) {
  return {
    id: record.id,
    version: record.version,
    status: record.status,
    run_id: record.runId ?? null,
    target_channel: record.target?.channel ?? null,
    target_conversation: record.target?.conversation ?? null,
    created_at: record.createdAt,
    expires_at: record.expiresAt,
    needs_repair: needsRepair(record) ? 1 : 0,
    record: json,
  };
}

const FILTER_COLUMNS = [
  ["status", "status"],
  ["runId", "run_id"],
  ["channel", "target_channel"],
  ["conversation", "target_conversation"],
  ["needsRepair", "needs_repair"],
] as const;

/** A filter value as SQLite binds it (booleans as 0/1). */
const bound = (value: unknown): unknown => (typeof value === "boolean" ? Number(value) : value);

/** Prepares every statement of the store on `db` (the schema must be migrated). */
export function prepareStatements(db: Database): Statements {
  const insert = db.prepare(`
    INSERT INTO questions (id, version, status, run_id, target_channel, target_conversation, created_at,
      expires_at, needs_repair, record)
    VALUES (@id, @version, @status, @run_id, @target_channel, @target_conversation, @created_at,
      @expires_at, @needs_repair, @record)
    ON CONFLICT (id) DO NOTHING`);
  const currentStatus = db
    .prepare<[string, number], QuestionStatus>("SELECT status FROM questions WHERE id = ? AND version = ?")
    .pluck();
  const update = db.prepare(`
    UPDATE questions SET version = @version, status = @status, run_id = @run_id,
      target_channel = @target_channel, target_conversation = @target_conversation,
      created_at = @created_at, expires_at = @expires_at, needs_repair = @needs_repair, record = @record
    WHERE id = @id AND version = @expected`);
  const deleteTokens = db.prepare("DELETE FROM question_tokens WHERE question_id = ?");
  const deleteMessages = db.prepare("DELETE FROM question_messages WHERE question_id = ?");
  // A token or message is owned by the record written last, as in the memory store.
  const insertToken = db.prepare("INSERT OR REPLACE INTO question_tokens (token, question_id) VALUES (?, ?)");
  const insertMessage = db.prepare(
    "INSERT OR REPLACE INTO question_messages (channel, conversation, message_id, question_id) VALUES (?, ?, ?, ?)",
  );

  function index(record: QuestionRecord): void {
    for (const token of record.tokens) insertToken.run(token, record.id);
    for (const d of record.deliveries) insertMessage.run(d.channel, d.conversation, d.messageId, record.id);
  }

  // IMMEDIATE: take the write lock before reading, so a peer's commit cannot slip in between the read
  // and the write (a deferred transaction would fail with SQLITE_BUSY_SNAPSHOT instead of waiting).
  const create = db.transaction((record: QuestionRecord, json: string): boolean => {
    if (insert.run(columns(record, json)).changes === 0) return false;
    index(record);
    return true;
  });
  const compareAndSet = db.transaction(
    (expectedVersion: number, next: QuestionRecord, json: string): QuestionStatus | undefined => {
      const previous = currentStatus.get(next.id, expectedVersion);
      if (previous === undefined) return undefined;
      if (update.run({ ...columns(next, json), expected: expectedVersion }).changes !== 1) return undefined;
      deleteTokens.run(next.id);
      deleteMessages.run(next.id);
      index(next);
      return previous;
    },
  );

  const lists = new Map<string, Statement<unknown[], string>>();
  function list(filter: QuestionFilter, page: ListPage = {}): string[] {
    const used = FILTER_COLUMNS.filter(([key]) => filter[key] !== undefined);
    const after = page.after !== undefined;
    const limited = page.limit !== undefined;
    const key = [...used.map(([name]) => name), after ? "after" : "", limited ? "limit" : ""].join(",");
    let statement = lists.get(key);
    if (!statement) {
      const conditions = used.map(([, column]) => `${column} = ?`);
      if (after) conditions.push("(created_at, id) > (?, ?)");
      const where = conditions.length ? `WHERE ${conditions.join(" AND ")}` : "";
      statement = db.prepare<unknown[], string>(
        `SELECT record FROM questions ${where} ORDER BY created_at, id${limited ? " LIMIT ?" : ""}`,
      );
      statement.pluck();
      lists.set(key, statement);
    }
    const values = used.map(([name]) => bound(filter[name]));
    if (page.after) values.push(page.after.createdAt, page.after.id);
    if (page.limit !== undefined) values.push(Math.max(0, Math.floor(page.limit)));
    return statement.all(...values);
  }

  return {
    create: (record, json) => create.immediate(record, json),
    compareAndSet: (expectedVersion, next, json) => compareAndSet.immediate(expectedVersion, next, json),
    list,
    get: db.prepare<[string], string>("SELECT record FROM questions WHERE id = ?").pluck(),
    byToken: db
      .prepare<[string], string>(
        "SELECT q.record FROM question_tokens t JOIN questions q ON q.id = t.question_id WHERE t.token = ?",
      )
      .pluck(),
    prune: db.prepare<[number, number]>(
      `DELETE FROM questions WHERE id IN (
         SELECT id FROM questions WHERE status IN ('answered', 'skipped', 'expired', 'cancelled', 'undeliverable')
           AND expires_at < ? LIMIT ?)`,
    ),
    see: db.prepare<[{ key: string; expires: number; now: number }]>(
      `INSERT INTO seen_keys (key, expires_at) VALUES (@key, @expires)
       ON CONFLICT (key) DO UPDATE SET expires_at = excluded.expires_at WHERE seen_keys.expires_at <= @now`,
    ),
    lease: db.prepare<[{ name: string; holder: string; expires: number; now: number }]>(
      `INSERT INTO leases (name, holder, expires_at) VALUES (@name, @holder, @expires)
       ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
       WHERE leases.holder = excluded.holder OR leases.expires_at <= @now`,
    ),
    release: db.prepare<[string, string]>("DELETE FROM leases WHERE name = ? AND holder = ?"),
    forget: db.prepare<[number]>("DELETE FROM seen_keys WHERE expires_at <= ?"),
    byMessage: db
      .prepare<[string, string, string], string>(
        `SELECT q.record FROM question_messages m JOIN questions q ON q.id = m.question_id
         WHERE m.channel = ? AND m.conversation = ? AND m.message_id = ?`,
      )
      .pluck(),
  };
}
