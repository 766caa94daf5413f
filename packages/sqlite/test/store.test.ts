import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import {
  AskUserError,
  type AskUserLogger,
  type QuestionRecord,
  type StoreChange,
} from "@ask-user/core/store";
import { sampleRecord } from "@ask-user/core/testing";
import Sqlite from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { createSqliteStore, type SqliteStore } from "../src/index.ts";
import { tempPaths } from "./temp.ts";

const tempPath = tempPaths();
const open: SqliteStore[] = [];
afterEach(async () => {
  for (const store of open.splice(0)) await store.close();
});
function openStore(options: Parameters<typeof createSqliteStore>[0] = { path: tempPath() }): SqliteStore {
  const store = createSqliteStore(options);
  open.push(store);
  return store;
}

const rejectsWith = (code: string) => (error: unknown) =>
  error instanceof AskUserError && error.code === code;

function bump(record: QuestionRecord, change: (r: QuestionRecord) => void): QuestionRecord {
  const next = structuredClone(record);
  change(next);
  next.version = record.version + 1;
  return next;
}

/** The rows of an index table, read over a separate connection. */
function rows(path: string, sql: string): unknown[] {
  const db = new Sqlite(path, { readonly: true });
  try {
    return db.prepare(sql).raw().all();
  } finally {
    db.close();
  }
}

describe("token and message indexes", () => {
  it("finds a question by each delivered message, and no longer by one that was removed", async () => {
    const store = openStore();
    const record = sampleRecord({ tokens: ["T1", "T2"] });
    await store.create(record);
    const prompt = { channel: "telegram", conversation: "100", messageId: "41", kind: "prompt" as const };
    const notice = { channel: "telegram", conversation: "100", messageId: "42", kind: "notice" as const };
    const delivered = bump(record, (r) => r.deliveries.push(prompt, notice));
    expect(await store.compareAndSet(1, delivered)).toBe(true);
    expect((await store.findByMessage("telegram", "100", "41"))?.deliveries).toEqual([prompt, notice]);
    expect((await store.findByMessage("telegram", "100", "42"))?.id).toBe(record.id);

    const withoutNotice = bump(delivered, (r) => r.deliveries.pop());
    expect(await store.compareAndSet(2, withoutNotice)).toBe(true);
    expect((await store.findByMessage("telegram", "100", "41"))?.version).toBe(3);
    expect(await store.findByMessage("telegram", "100", "42")).toBeUndefined();
    expect((await store.findByToken("T2"))?.version).toBe(3);
    expect(rows(store.path, "SELECT channel, conversation, message_id FROM question_messages")).toEqual([
      ["telegram", "100", "41"],
    ]);
  });

  it("keeps the token table equal to the record's tokens", async () => {
    const store = openStore();
    const record = sampleRecord({ tokens: ["T1", "T2"] });
    await store.create(record);
    const next = bump(record, (r) => {
      r.tokens = ["T2", "T3"];
    });
    expect(await store.compareAndSet(1, next)).toBe(true);
    expect(await store.findByToken("T1")).toBeUndefined();
    expect((await store.findByToken("T3"))?.id).toBe(record.id);
    expect(rows(store.path, "SELECT token, question_id FROM question_tokens ORDER BY token")).toEqual([
      ["T2", record.id],
      ["T3", record.id],
    ]);
  });

  it("keeps index rows that did not change, and takes back a token another record took over", async () => {
    const store = openStore();
    const record = sampleRecord({ tokens: ["T1", "T2"] });
    await store.create(record);
    const prompt = { channel: "slack", conversation: "C1", messageId: "1.5", kind: "prompt" as const };
    const delivered = bump(record, (r) => r.deliveries.push(prompt));
    expect(await store.compareAndSet(1, delivered)).toBe(true);
    // Count the index rows deleted from now on (a trigger in the file: the writer's connection fires it).
    const db = new Sqlite(store.path);
    db.exec(`CREATE TABLE deleted_rows (what TEXT);
      CREATE TRIGGER tokens_deleted AFTER DELETE ON question_tokens BEGIN INSERT INTO deleted_rows VALUES ('token'); END;
      CREATE TRIGGER messages_deleted AFTER DELETE ON question_messages BEGIN INSERT INTO deleted_rows VALUES ('message'); END;`);
    db.close();
    const answered = bump(delivered, (r) => {
      r.status = "answered";
    });
    expect(await store.compareAndSet(2, answered)).toBe(true);
    expect(rows(store.path, "SELECT what FROM deleted_rows")).toEqual([]); // nothing rewritten
    expect((await store.findByMessage("slack", "C1", "1.5"))?.status).toBe("answered");

    // A record written later with the same token owns it; the first one, written again, takes it back.
    const other = sampleRecord({ tokens: ["T2"] });
    await store.create(other);
    expect((await store.findByToken("T2"))?.id).toBe(other.id);
    expect(
      await store.compareAndSet(
        3,
        bump(answered, (r) => r.deliveries.push({ ...prompt, messageId: "1.6" })),
      ),
    ).toBe(true);
    expect((await store.findByToken("T2"))?.id).toBe(record.id);
    expect((await store.findByMessage("slack", "C1", "1.6"))?.id).toBe(record.id);
  });

  it("leaves the indexes alone when a compare-and-set is refused", async () => {
    const store = openStore();
    const record = sampleRecord();
    await store.create(record);
    const stale = bump(record, (r) => {
      r.version = 5;
      r.deliveries.push({ channel: "slack", conversation: "C1", messageId: "1.2", kind: "prompt" });
    });
    expect(await store.compareAndSet(4, stale)).toBe(false);
    expect(await store.findByMessage("slack", "C1", "1.2")).toBeUndefined();
  });
});

describe("the SQLite file", () => {
  it("creates its parent folders and uses the WAL journal", async () => {
    const store = openStore();
    await store.create(sampleRecord());
    expect(existsSync(store.path)).toBe(true);
    expect(rows(store.path, "PRAGMA journal_mode")).toEqual([["wal"]]);
    expect(rows(store.path, "PRAGMA integrity_check")).toEqual([["ok"]]);
  });

  it("works in memory, where nothing is shared or kept", async () => {
    const store = openStore({ path: ":memory:" });
    const record = sampleRecord();
    await store.create(record);
    expect(await store.get(record.id)).toEqual(record);
    expect(await openStore({ path: ":memory:" }).get(record.id)).toBeUndefined();
  });

  it("reports a file that is not a database as a store failure with the cause", () => {
    const path = tempPath();
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, "this is not a database, just some text that is long enough to have a header");
    let thrown: unknown;
    try {
      createSqliteStore({ path });
    } catch (error) {
      thrown = error;
    }
    expect(rejectsWith("store_failure")(thrown)).toBe(true);
    expect((thrown as Error).message).toContain(path);
    expect((thrown as Error).cause).toBeInstanceOf(Sqlite.SqliteError);
  });

  it("fails at once with a store failure for a path under /proc (no endless folder creation)", () => {
    const started = Date.now();
    let thrown: unknown;
    try {
      createSqliteStore({ path: "/proc/ask-user/data/questions.db" });
    } catch (error) {
      thrown = error;
    }
    expect(rejectsWith("store_failure")(thrown)).toBe(true);
    expect((thrown as Error).message).toContain(
      "/proc/ask-user/data/questions.db: could not open the database",
    );
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("gives up on a write lock held past busyTimeoutMs with a store failure", async () => {
    const store = openStore({ path: tempPath(), busyTimeoutMs: 50 });
    const other = new Sqlite(store.path);
    try {
      other.exec("BEGIN IMMEDIATE");
      const started = Date.now();
      await expect(store.create(sampleRecord())).rejects.toSatisfy(rejectsWith("store_failure"));
      expect(Date.now() - started).toBeGreaterThanOrEqual(40);
      other.exec("ROLLBACK");
      await store.create(sampleRecord());
    } finally {
      other.close();
    }
  });
});

describe("subscribers and closing", () => {
  it("hands each subscriber its own copy, and a throwing subscriber does not stop the others", async () => {
    const logged: string[] = [];
    const logger: AskUserLogger = {
      warn: () => undefined,
      error: (_details, message) => logged.push(message),
    };
    const store = openStore({ path: tempPath(), logger });
    const seen: StoreChange[][] = [[], []];
    store.subscribe((change) => {
      seen[0]?.push(change);
      change.record.status = "cancelled";
      throw new Error("listener bug");
    });
    store.subscribe((change) => seen[1]?.push(change));
    const record = sampleRecord();
    await store.create(record);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen[1]?.map((c) => [c.record.status, c.previousStatus])).toEqual([["pending", undefined]]);
    expect(seen[0]).toHaveLength(1);
    expect(logged).toEqual(["store subscriber failed"]);
    expect((await store.get(record.id))?.status).toBe("pending");
  });

  it("refuses every call after close with a closed error, and closes twice without complaint", async () => {
    const store = createSqliteStore({ path: tempPath() });
    const record = sampleRecord();
    await store.create(record);
    await store.close();
    await store.close();
    const closed = rejectsWith("closed");
    await expect(store.get(record.id)).rejects.toSatisfy(closed);
    await expect(store.create(sampleRecord())).rejects.toSatisfy(closed);
    await expect(store.compareAndSet(1, { ...record, version: 2 })).rejects.toSatisfy(closed);
    await expect(store.compareAndSet(1, record)).rejects.toSatisfy(closed);
    await expect(store.list()).rejects.toSatisfy(closed);
    await expect(store.findByToken("x")).rejects.toSatisfy(closed);
    await expect(store.findByMessage("a", "b", "c")).rejects.toSatisfy(closed);
    expect(() => store.subscribe(() => undefined)).toThrow(AskUserError);
  });
});
