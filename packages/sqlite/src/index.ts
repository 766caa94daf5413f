/**
 * @ask-user/sqlite — the durable, embedded `QuestionStore`: one SQLite file, WAL journal, every
 * acknowledged write synced to disk, schema versioned and migrated at open.
 */
export { MIGRATIONS, type Migration, migrate, SCHEMA_VERSION, schemaVersion } from "./migrations.ts";
export { createSqliteStore, type SqliteStore, type SqliteStoreOptions } from "./store.ts";
