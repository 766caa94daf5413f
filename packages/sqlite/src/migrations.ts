import { AskUserError } from "@ask-user/core/store";
import type { Database } from "better-sqlite3";

/** One step of the schema: applied once, in order, inside the opening transaction. */
export interface Migration {
  /** 1, 2, 3, … without gaps. */
  version: number;
  /** What the step does, recorded in `schema_migrations`. */
  name: string;
  /** SQL statements, run with `db.exec`. */
  sql: string;
}

/**
 * The schema, oldest step first. Never edit a step that has shipped: add a new one.
 *
 * The record itself is stored as JSON (`questions.record`); the other columns are copies of the fields
 * that are queried, written from the record in the same statement. `question_tokens` and
 * `question_messages` index the record's `tokens` and `deliveries` and are rewritten with it in the
 * same transaction.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "questions with token and message indexes",
    sql: `
      CREATE TABLE questions (
        id TEXT PRIMARY KEY NOT NULL,
        version INTEGER NOT NULL,
        status TEXT NOT NULL,
        run_id TEXT,
        target_channel TEXT,
        target_conversation TEXT,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        record TEXT NOT NULL CHECK (json_valid(record))
      );
      CREATE INDEX questions_by_created ON questions (created_at, id);
      CREATE INDEX questions_by_status ON questions (status, created_at, id);
      CREATE INDEX questions_by_run ON questions (run_id, created_at, id);
      CREATE INDEX questions_by_target ON questions (target_channel, target_conversation, created_at, id);
      CREATE INDEX questions_by_expiry ON questions (status, expires_at);

      CREATE TABLE question_tokens (
        token TEXT PRIMARY KEY NOT NULL,
        question_id TEXT NOT NULL REFERENCES questions (id) ON DELETE CASCADE
      ) WITHOUT ROWID;
      CREATE INDEX question_tokens_by_question ON question_tokens (question_id);

      CREATE TABLE question_messages (
        channel TEXT NOT NULL,
        conversation TEXT NOT NULL,
        message_id TEXT NOT NULL,
        question_id TEXT NOT NULL REFERENCES questions (id) ON DELETE CASCADE,
        PRIMARY KEY (channel, conversation, message_id)
      ) WITHOUT ROWID;
      CREATE INDEX question_messages_by_question ON question_messages (question_id);
    `,
  },
  {
    version: 2,
    name: "index of the questions that need repair",
    // Pending questions with a target and no delivered prompt are marked here; ended ones whose edit was
    // lost before this version stay as they are (their summaries were never tracked).
    sql: `
      ALTER TABLE questions ADD COLUMN needs_repair INTEGER NOT NULL DEFAULT 0;
      UPDATE questions SET needs_repair = 1
        WHERE status = 'pending' AND target_channel IS NOT NULL
          AND NOT EXISTS (
            SELECT 1 FROM json_each(questions.record, '$.deliveries') AS d
            WHERE json_extract(d.value, '$.kind') = 'prompt'
          );
      CREATE INDEX questions_needing_repair ON questions (created_at, id) WHERE needs_repair = 1;
    `,
  },
  {
    version: 3,
    name: "dedupe keys and leases for several processes",
    sql: `
      CREATE TABLE seen_keys (
        key TEXT PRIMARY KEY NOT NULL,
        expires_at INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX seen_keys_by_expiry ON seen_keys (expires_at);
      CREATE TABLE leases (
        name TEXT PRIMARY KEY NOT NULL,
        holder TEXT NOT NULL,
        expires_at INTEGER NOT NULL
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 4,
    name: "pending questions by conversation, for reply routing",
    sql: `
      CREATE INDEX questions_by_status_target
        ON questions (status, target_channel, target_conversation, created_at, id);
    `,
  },
  {
    version: 5,
    name: "partial indexes: only the rows their queries can find",
    // Every query that uses one of these implies its condition (`run_id = ?` implies `run_id IS NOT
    // NULL`; retention asks for `status <> 'pending'`), so a question without a run or a target costs
    // no row in those indexes, and a pending one none in the retention index: fewer index writes per
    // create and per answer. The retention index no longer needs the status as its first column.
    sql: `
      DROP INDEX questions_by_run;
      CREATE INDEX questions_by_run ON questions (run_id, created_at, id) WHERE run_id IS NOT NULL;
      DROP INDEX questions_by_target;
      CREATE INDEX questions_by_target ON questions (target_channel, target_conversation, created_at, id)
        WHERE target_channel IS NOT NULL;
      DROP INDEX questions_by_status_target;
      CREATE INDEX questions_by_status_target
        ON questions (status, target_channel, target_conversation, created_at, id)
        WHERE target_channel IS NOT NULL;
      DROP INDEX questions_by_expiry;
      CREATE INDEX questions_ended_by_expiry ON questions (expires_at) WHERE status <> 'pending';
    `,
  },
];

/** The schema version this code writes: the last migration's. */
export const SCHEMA_VERSION: number = MIGRATIONS.at(-1)?.version ?? 0;

/** The version recorded in the database (0 for a new file). */
export function schemaVersion(db: Database): number {
  const table = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
    .pluck()
    .get();
  if (table === undefined) return 0;
  const version = db.prepare("SELECT MAX(version) FROM schema_migrations").pluck().get();
  return typeof version === "number" ? version : 0;
}

/**
 * Brings the database to the last version of `migrations` in one IMMEDIATE transaction (so two
 * processes opening a new file at once do not both migrate it), and returns that version. A file
 * already at that version is only read. Refuses a
 * database written by newer code: it could hold data this code would misread or destroy.
 */
export function migrate(
  db: Database,
  migrations: readonly Migration[] = MIGRATIONS,
  label = db.name,
): number {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new AskUserError("store_failure", `Migration ${index + 1} is numbered ${migration.version}.`);
    }
  });
  const latest = migrations.length;
  const refuseNewer = (current: number) => {
    if (current <= latest) return;
    throw new AskUserError(
      "store_failure",
      `The SQLite store ${label} has schema version ${current}, but this version of @ask-user/sqlite ` +
        `knows versions up to ${latest}. It was written by a newer release: upgrade @ask-user/sqlite ` +
        "(or use a different file); it is not opened so that nothing in it is damaged.",
    );
  };
  // A file already at this version is left alone without taking the write lock, so opening it never
  // waits for another connection's write.
  const found = schemaVersion(db);
  refuseNewer(found);
  if (found === latest && latest > 0) return latest;
  const apply = db.transaction(() => {
    db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY NOT NULL,
      name TEXT NOT NULL,
      applied_at INTEGER NOT NULL
    )`);
    const current = schemaVersion(db);
    refuseNewer(current);
    const record = db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)");
    for (const migration of migrations.slice(current)) {
      db.exec(migration.sql);
      record.run(migration.version, migration.name, Date.now());
    }
  });
  apply.immediate();
  return latest;
}
