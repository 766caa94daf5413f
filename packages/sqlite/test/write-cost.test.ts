import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { QuestionRecord } from "@ask-user/core/store";
import { sampleRecord } from "@ask-user/core/testing";
import Sqlite from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { createSqliteStore, MIGRATIONS, migrate, type SqliteStore } from "../src/index.ts";
import { recordRows } from "../src/rows.ts";
import { prepareReads } from "../src/statements.ts";
import { configureWriter, createWriter } from "../src/writer.mjs";
import { tempPaths } from "./temp.ts";

const tempPath = tempPaths();
const open: SqliteStore[] = [];
afterEach(async () => {
  for (const store of open.splice(0)) await store.close();
});
function openStore(path: string): SqliteStore {
  const store = createSqliteStore({ path });
  open.push(store);
  return store;
}

/** How many rows each index of `questions` holds (the leaf cells of its b-tree), over its own connection. */
function indexRows(path: string): Record<string, number> {
  const db = new Sqlite(path, { readonly: true });
  try {
    const counts = db
      .prepare<[], { name: string; rows: number }>(
        `SELECT name, SUM(ncell) AS rows FROM dbstat
         WHERE pagetype = 'leaf' AND name IN (SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'questions')
         GROUP BY name`,
      )
      .all();
    const result: Record<string, number> = {};
    for (const index of db
      .prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'questions'")
      .pluck()
      .all())
      result[index] = 0;
    for (const { name, rows } of counts) result[name] = rows;
    return result;
  } finally {
    db.close();
  }
}

/** `db` with every SQL text it prepares recorded in `prepared`. */
function recording(db: Sqlite.Database, prepared: string[]): Sqlite.Database {
  return new Proxy(db, {
    get(target, key) {
      if (key === "prepare")
        return (sql: string) => {
          prepared.push(sql);
          return target.prepare(sql);
        };
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

const plan = (db: Sqlite.Database, sql: string, params: unknown[]) =>
  db
    .prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
    .all(...params)
    .map((step) => step.detail)
    .join(" | ");

/** A sample record with no target (a question asked over HTTP only). */
function untargeted(overrides: Partial<QuestionRecord> = {}): QuestionRecord {
  const { target: _target, ...record } = sampleRecord(overrides);
  return record;
}

const answered = (record: QuestionRecord): QuestionRecord => ({
  ...record,
  version: record.version + 1,
  status: "answered",
  answers: { deploy_target: ["Production"] },
  resolvedAt: record.createdAt + 1,
});

describe("what a write costs", () => {
  it("gives a question without a run or a target no row in the run and conversation indexes, and a pending one none in the retention index", async () => {
    const path = tempPath();
    const store = openStore(path);
    const plain = untargeted();
    const targeted = sampleRecord({ runId: "run-1" });
    await store.create(plain);
    await store.create(targeted);
    const pending = indexRows(path);
    expect(pending).toMatchObject({
      questions_by_created: 2,
      questions_by_status: 2,
      questions_by_run: 1,
      questions_by_target: 1,
      questions_by_status_target: 1,
      questions_ended_by_expiry: 0,
    });
    expect(await store.compareAndSet(1, answered(plain))).toBe(true);
    expect(indexRows(path)).toMatchObject({ questions_by_status: 2, questions_ended_by_expiry: 1 });
    expect((await store.list({ runId: "run-1" })).map((r) => r.id)).toEqual([targeted.id]);
    expect((await store.list({ channel: "telegram", conversation: "100" })).map((r) => r.id)).toEqual([
      targeted.id,
    ]);
  });

  it("rewrites only the index rows of the columns an update changes", () => {
    const db = new Sqlite(":memory:");
    try {
      configureWriter(db, 0);
      migrate(db);
      // An index on each copied column through a function that counts its calls: SQLite computes an
      // index's key only for the rows it (re)writes in that index.
      const calls: Record<string, number> = {};
      db.function("probe", { deterministic: true }, (column, value) => {
        calls[String(column)] = (calls[String(column)] ?? 0) + 1;
        return value;
      });
      const columns = ["created_at", "run_id", "target_channel", "target_conversation", "expires_at"];
      for (const column of columns)
        db.exec(`CREATE INDEX probe_${column} ON questions (probe('${column}', ${column}))`);
      const writer = createWriter(db);
      const record = sampleRecord({ runId: "run-1" });
      const write = (kind: "create" | "compareAndSet", next: QuestionRecord) => {
        const rows = recordRows(next, JSON.stringify(next));
        const op = kind === "create" ? { kind, ...rows } : { kind, expected: next.version - 1, ...rows };
        const result = writer.run([op]);
        if (!result.ok) throw new Error(result.error.message);
        return result.outcomes[0];
      };
      write("create", record);
      for (const column of columns) calls[column] = 0;

      const answer = answered(record);
      expect(write("compareAndSet", answer)).toEqual({ ok: true, value: "pending" });
      expect(calls).toEqual({
        created_at: 0,
        run_id: 0,
        target_channel: 0,
        target_conversation: 0,
        expires_at: 0,
      });

      // A change of target is written, and only the target's index rows are rewritten.
      const moved = { ...answer, version: 3, target: { channel: "slack", conversation: "C1" } };
      expect(write("compareAndSet", moved)).toEqual({ ok: true, value: "answered" });
      expect(calls.created_at).toBe(0);
      expect(calls.run_id).toBe(0);
      expect(calls.target_channel).toBeGreaterThan(0);
      expect(calls.target_conversation).toBeGreaterThan(0);
      const stored = db
        .prepare("SELECT status, target_channel, target_conversation, run_id FROM questions WHERE id = ?")
        .get(record.id);
      expect(stored).toEqual({
        status: "answered",
        target_channel: "slack",
        target_conversation: "C1",
        run_id: "run-1",
      });
    } finally {
      db.close();
    }
  });

  it("still writes every copied column a compare-and-set changes", async () => {
    const store = openStore(tempPath());
    const record = sampleRecord({ runId: "run-a" });
    await store.create(record);
    const next: QuestionRecord = {
      ...record,
      version: 2,
      runId: "run-b",
      target: { channel: "slack", conversation: "C9" },
      createdAt: record.createdAt + 5,
      expiresAt: 1,
      status: "expired",
    };
    expect(await store.compareAndSet(1, next)).toBe(true);
    expect(await store.list({ runId: "run-a" })).toEqual([]);
    expect((await store.list({ runId: "run-b" })).map((r) => r.id)).toEqual([record.id]);
    expect(
      (await store.list({ status: "expired", channel: "slack", conversation: "C9" })).map((r) => r.id),
    ).toEqual([record.id]);
    expect(await store.list({ channel: "telegram" })).toEqual([]);
    expect(await store.prune(2)).toBe(1);
    expect(await store.get(record.id)).toBeUndefined();
  });

  it("skips the JSON check on the writer's connection only", () => {
    const db = new Sqlite(":memory:");
    const other = new Sqlite(":memory:");
    try {
      configureWriter(db, 0);
      migrate(db);
      migrate(other);
      const insert = `INSERT INTO questions (id, version, status, created_at, expires_at, record)
                      VALUES ('q', 1, 'pending', 1, 2, '{"id":"q"}')`;
      db.exec(insert);
      // Another connection (a tool, an older release) is still held to the schema's CHECK.
      expect(() => other.exec(insert.replace(`'{"id":"q"}'`, "'not json'"))).toThrow(
        /CHECK constraint failed/,
      );
      expect(db.pragma("ignore_check_constraints", { simple: true })).toBe(1);
    } finally {
      db.close();
      other.close();
    }
  });
});

describe("schema version 5 (partial indexes)", () => {
  it("migrates a version 4 file with data: records, queries and retention unchanged, each query on its index", async () => {
    const path = tempPath();
    mkdirSync(dirname(path), { recursive: true });
    const old = new Sqlite(path);
    migrate(old, MIGRATIONS.slice(0, 4));
    const insert = old.prepare(
      `INSERT INTO questions (id, version, status, run_id, target_channel, target_conversation, created_at,
         expires_at, needs_repair, record)
       VALUES (@id, @version, @status, @run_id, @target_channel, @target_conversation, @created_at,
         @expires_at, @needs_repair, @record)`,
    );
    const token = old.prepare("INSERT INTO question_tokens (token, question_id) VALUES (?, ?)");
    const delivered = { channel: "telegram", conversation: "100", messageId: "7", kind: "prompt" as const };
    const targeted = sampleRecord({ runId: "run-1", createdAt: 10, deliveries: [delivered] });
    const plain = untargeted({ createdAt: 20 });
    const ended = answered(untargeted({ createdAt: 30, expiresAt: 50 }));
    for (const record of [targeted, plain, ended]) {
      insert.run(recordRows(record, JSON.stringify(record)).row);
      for (const t of record.tokens) token.run(t, record.id);
    }
    old
      .prepare(
        "INSERT INTO question_messages (channel, conversation, message_id, question_id) VALUES (?, ?, ?, ?)",
      )
      .run("telegram", "100", "7", targeted.id);
    old.close();

    const store = openStore(path);
    const ids = (records: QuestionRecord[]) => records.map((r) => r.id);
    expect(await store.get(plain.id)).toEqual(plain);
    expect(ids(await store.list())).toEqual([targeted.id, plain.id, ended.id]);
    expect(ids(await store.list({ status: "pending" }))).toEqual([targeted.id, plain.id]);
    expect(ids(await store.list({ runId: "run-1" }))).toEqual([targeted.id]);
    expect(ids(await store.list({ status: "pending", channel: "telegram", conversation: "100" }))).toEqual([
      targeted.id,
    ]);
    expect(ids(await store.list({}, { after: { createdAt: 10, id: targeted.id }, limit: 1 }))).toEqual([
      plain.id,
    ]);
    expect((await store.findByToken(plain.tokens[0] ?? ""))?.id).toBe(plain.id);
    expect((await store.findByMessage("telegram", "100", "7"))?.id).toBe(targeted.id);
    expect(indexRows(path)).toMatchObject({
      questions_by_run: 1,
      questions_by_target: 1,
      questions_by_status_target: 1,
      questions_ended_by_expiry: 1,
    });
    expect(await store.prune(60)).toBe(1);
    expect(ids(await store.list())).toEqual([targeted.id, plain.id]);
    await store.close();

    // Each query the store prepares, planned on the migrated file: on its index, never a table scan.
    const db = new Sqlite(path, { readonly: true });
    try {
      const prepared: string[] = [];
      const reads = prepareReads(recording(db, prepared));
      const expected: [Parameters<typeof reads.list>[0], string][] = [
        [{}, "questions_by_created"],
        [{ status: "pending" }, "questions_by_status"],
        [{ runId: "run-1" }, "questions_by_run"],
        [{ channel: "telegram" }, "questions_by_target"],
        [{ channel: "telegram", conversation: "100" }, "questions_by_target"],
        [{ status: "pending", channel: "telegram", conversation: "100" }, "questions_by_status_target"],
        [{ needsRepair: true }, "questions_needing_repair"],
      ];
      for (const [filter, index] of expected) {
        for (const page of [{ limit: 5 }, { after: { createdAt: 1, id: "a" }, limit: 5 }]) {
          prepared.length = 0;
          reads.list(filter, page);
          const params = [
            ...Object.values(filter).map((v) => (typeof v === "boolean" ? Number(v) : v)),
            ...(page.after ? [page.after.createdAt, page.after.id] : []),
            page.limit,
          ];
          const steps = plan(db, prepared[0] ?? "", params);
          expect(steps, JSON.stringify(filter)).toContain(`USING INDEX ${index}`);
          expect(steps).not.toMatch(/SCAN questions(?! USING)/);
        }
      }
    } finally {
      db.close();
    }
    const writerDb = new Sqlite(path);
    try {
      const prepared: string[] = [];
      createWriter(recording(writerDb, prepared));
      const prune = prepared.find((sql) => sql.includes("DELETE FROM questions")) ?? "";
      const inner = prune.slice(prune.indexOf("SELECT"), prune.lastIndexOf(")"));
      expect(plan(writerDb, inner, [60, 500])).toContain("USING INDEX questions_ended_by_expiry");
    } finally {
      writerDb.close();
    }
  });
});
