import type { ListPage, QuestionFilter } from "@ask-user/core/store";
import type { Database, Statement } from "better-sqlite3";

/**
 * The store's reads, prepared once on the main thread's connection and reused. (The writes are in
 * `writer.mjs`, on the writer thread's connection.) In WAL mode a reader never waits for the writer: it
 * reads the last commit, so a read sees every write whose promise has resolved.
 */
export interface ReadStatements {
  /** JSON of the records matching the filter, oldest first, one page of them when asked. */
  list(filter: QuestionFilter, page?: ListPage): string[];
  get: Statement<[string], string>;
  byToken: Statement<[string], string>;
  byMessage: Statement<[string, string, string], string>;
  /** The holder of a lease that has not run out at the given time (epoch ms). */
  leaseHolder: Statement<[string, number], string>;
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

/** Prepares the read statements on `db` (the schema must be migrated). */
export function prepareReads(db: Database): ReadStatements {
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
    list,
    get: db.prepare<[string], string>("SELECT record FROM questions WHERE id = ?").pluck(),
    byToken: db
      .prepare<[string], string>(
        "SELECT q.record FROM question_tokens t JOIN questions q ON q.id = t.question_id WHERE t.token = ?",
      )
      .pluck(),
    byMessage: db
      .prepare<[string, string, string], string>(
        `SELECT q.record FROM question_messages m JOIN questions q ON q.id = m.question_id
         WHERE m.channel = ? AND m.conversation = ? AND m.message_id = ?`,
      )
      .pluck(),
    leaseHolder: db
      .prepare<[string, number], string>("SELECT holder FROM leases WHERE name = ? AND expires_at > ?")
      .pluck(),
  };
}
