import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { AskUserError } from "@ask-user/core/store";
import { sampleRecord } from "@ask-user/core/testing";
import Sqlite from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { createSqliteStore, MIGRATIONS, type Migration, migrate, SCHEMA_VERSION } from "../src/index.ts";
import { tempPaths } from "./temp.ts";

const tempPath = tempPaths();

function appliedVersions(path: string): number[] {
  const db = new Sqlite(path, { readonly: true });
  try {
    return db.prepare<[], number>("SELECT version FROM schema_migrations ORDER BY version").pluck().all();
  } finally {
    db.close();
  }
}

function isStoreFailure(error: unknown): error is AskUserError {
  return error instanceof AskUserError && error.code === "store_failure";
}

describe("schema migrations", () => {
  it("gives a new file every migration, recorded in schema_migrations", async () => {
    const path = tempPath();
    await createSqliteStore({ path }).close();
    expect(SCHEMA_VERSION).toBe(MIGRATIONS.length);
    expect(appliedVersions(path)).toEqual(MIGRATIONS.map((m) => m.version));
  });

  it("marks the undelivered pending questions of a version 1 file for repair when it upgrades", async () => {
    const path = tempPath();
    mkdirSync(dirname(path), { recursive: true });
    const db = new Sqlite(path);
    migrate(db, MIGRATIONS.slice(0, 1));
    const insert = db.prepare(
      `INSERT INTO questions (id, version, status, target_channel, target_conversation, created_at, expires_at, record)
       VALUES (?, 1, ?, 'telegram', '100', ?, ?, ?)`,
    );
    const prompt = { channel: "telegram", conversation: "100", messageId: "7", kind: "prompt" as const };
    const undelivered = sampleRecord({ createdAt: 1 });
    const delivered = sampleRecord({ createdAt: 2, deliveries: [prompt] });
    for (const r of [undelivered, delivered]) {
      insert.run(r.id, r.status, r.createdAt, r.expiresAt, JSON.stringify(r));
    }
    db.close();
    const store = createSqliteStore({ path });
    expect((await store.list({ needsRepair: true })).map((r) => r.id)).toEqual([undelivered.id]);
    await store.close();
  });

  it("keeps records, tokens and deliveries when the file is closed and opened again", async () => {
    const path = tempPath();
    const first = createSqliteStore({ path });
    const record = sampleRecord({ runId: "run-keep" });
    await first.create(record);
    const next = {
      ...record,
      version: 2,
      status: "answered" as const,
      answers: { deploy_target: ["Production"] },
      deliveries: [{ channel: "telegram", conversation: "100", messageId: "7", kind: "prompt" as const }],
    };
    expect(await first.compareAndSet(1, next)).toBe(true);
    await first.close();

    const second = createSqliteStore({ path });
    try {
      expect(await second.get(record.id)).toEqual(next);
      expect((await second.list({ runId: "run-keep" })).map((r) => r.id)).toEqual([record.id]);
      expect((await second.findByToken(record.tokens[0] ?? ""))?.id).toBe(record.id);
      expect((await second.findByMessage("telegram", "100", "7"))?.id).toBe(record.id);
      expect(appliedVersions(path)).toEqual(MIGRATIONS.map((m) => m.version));
    } finally {
      await second.close();
    }
  });

  it("refuses a file written by a newer schema, with a message that says what to do", async () => {
    const path = tempPath();
    await createSqliteStore({ path }).close();
    const db = new Sqlite(path);
    db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)").run(
      SCHEMA_VERSION + 1,
      "from the future",
      Date.now(),
    );
    db.close();

    let thrown: unknown;
    try {
      createSqliteStore({ path });
    } catch (error) {
      thrown = error;
    }
    expect(isStoreFailure(thrown)).toBe(true);
    expect((thrown as Error).message).toContain(`has schema version ${SCHEMA_VERSION + 1}`);
    expect((thrown as Error).message).toContain(`knows versions up to ${SCHEMA_VERSION}`);
    expect((thrown as Error).message).toContain("upgrade @ask-user/sqlite");
    expect(appliedVersions(path)).toContain(SCHEMA_VERSION + 1);
  });

  it("applies only the steps a file lacks, in order", async () => {
    const path = tempPath();
    await createSqliteStore({ path }).close();
    const extra: Migration = {
      version: SCHEMA_VERSION + 1,
      name: "add a notes table",
      sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)",
    };
    const db = new Sqlite(path);
    try {
      expect(migrate(db, [...MIGRATIONS, extra])).toBe(SCHEMA_VERSION + 1);
      expect(migrate(db, [...MIGRATIONS, extra])).toBe(SCHEMA_VERSION + 1);
      db.prepare("INSERT INTO notes (text) VALUES ('x')").run();
      expect(db.prepare("SELECT name FROM schema_migrations ORDER BY version").pluck().all()).toEqual([
        ...MIGRATIONS.map((m) => m.name),
        "add a notes table",
      ]);
    } finally {
      db.close();
    }
  });

  it("rolls a failing step back entirely and leaves the file at its old version", async () => {
    const path = tempPath();
    await createSqliteStore({ path }).close();
    const broken: Migration = {
      version: SCHEMA_VERSION + 1,
      name: "half-done",
      sql: "CREATE TABLE half (id INTEGER PRIMARY KEY); INSERT INTO no_such_table VALUES (1);",
    };
    const db = new Sqlite(path);
    try {
      expect(() => migrate(db, [...MIGRATIONS, broken])).toThrow(/no such table/);
      expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'half'").get()).toBeUndefined();
    } finally {
      db.close();
    }
    expect(appliedVersions(path)).toEqual(MIGRATIONS.map((m) => m.version));
  });

  it("refuses a list of steps with a gap in its numbers", () => {
    const db = new Sqlite(":memory:");
    try {
      const gap: Migration = { version: SCHEMA_VERSION + 2, name: "gap", sql: "SELECT 1" };
      expect(() => migrate(db, [...MIGRATIONS, gap])).toThrow(/is numbered/);
    } finally {
      db.close();
    }
  });
});
