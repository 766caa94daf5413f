/**
 * The bare side's one durable write: raw better-sqlite3 on the main thread, WAL with
 * `synchronous = FULL` (the product store's durability), one row per tap in its own transaction.
 */
import Database from "better-sqlite3";
import type { Span } from "./spans.ts";

/** A table of taps in a SQLite file. */
export interface TapLog {
  /** Writes one tap durably: committed and fsynced when it returns. */
  record(tapId: string, userId: string, data: string): void;
  /** Each write, as a span named `write`. */
  readonly spans: readonly Span[];
  /** How many taps the file holds. */
  count(): number;
  close(): void;
}

/** Opens (creating) the tap log at `path`. */
export function openTapLog(path: string): TapLog {
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  db.exec(
    "CREATE TABLE IF NOT EXISTS taps (id TEXT PRIMARY KEY, user_id TEXT NOT NULL, data TEXT NOT NULL, at INTEGER NOT NULL)",
  );
  const insert = db.prepare("INSERT INTO taps (id, user_id, data, at) VALUES (?, ?, ?, ?)");
  const count = db.prepare("SELECT count(*) FROM taps").pluck();
  const spans: Span[] = [];
  return {
    record(tapId, userId, data) {
      const start = performance.now();
      insert.run(tapId, userId, data, Date.now());
      spans.push({ name: "write", start, end: performance.now() });
    },
    spans,
    count: () => count.get() as number,
    close: () => db.close(),
  };
}
