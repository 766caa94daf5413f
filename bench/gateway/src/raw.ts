/**
 * The baselines of the SQLite figures: raw better-sqlite3 (WAL, `synchronous = FULL`) doing the store's
 * SQL on the main thread, reads answered by another thread, and another connection holding the write
 * lock; and the records both sides write.
 */
import { createRequire } from "node:module";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import { normalizeAskUserInput, type QuestionRecord } from "@ask-user/core";
import { migrate } from "@ask-user/sqlite";
import { cpuMicros } from "./machine.ts";
import { input } from "./samples.ts";

/** The few calls of better-sqlite3 the baselines make (it is @ask-user/sqlite's dependency, not ours). */
interface RawStatement {
  run(...params: unknown[]): { changes: number };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  pluck(): RawStatement;
}
export interface RawDatabase {
  pragma(source: string): unknown;
  exec(source: string): void;
  prepare(source: string): RawStatement;
  close(): void;
}
export type RawConstructor = new (path: string) => RawDatabase;
const requireFromStore = createRequire(import.meta.resolve("@ask-user/sqlite"));
/** better-sqlite3 itself, as @ask-user/sqlite loads it. */
export const Raw = requireFromStore("better-sqlite3") as RawConstructor;
const RAW_PATH = requireFromStore.resolve("better-sqlite3");

/** Concurrent writers, and raw rows per transaction. */
export const WRITERS = 64;

const prompt = normalizeAskUserInput(input);

/** A pending question as the gateway stores it, with a token and a delivered prompt. */
export function pending(i: number, now: number): QuestionRecord {
  const id = `q${i.toString().padStart(7, "0")}`;
  return {
    id,
    version: 1,
    prompt,
    target: { channel: "telegram", conversation: "100" },
    answerers: { kind: "creator" },
    locale: "en",
    createdAt: now + i,
    expiresAt: now + 900_000,
    status: "pending",
    tokens: [`T${i.toString().padStart(15, "0")}`],
    deliveries: [{ channel: "telegram", conversation: "100", messageId: `m${i}`, kind: "prompt" }],
  };
}

/** The next version of `record`: answered by @alice on Telegram. */
export function answered(record: QuestionRecord): QuestionRecord {
  return {
    ...record,
    version: record.version + 1,
    status: "answered",
    answers: { deploy_target: ["Production"] },
    resolvedBy: { channel: "telegram", userId: "7", displayName: "@alice" },
    resolvedAt: record.createdAt + 1,
  };
}

/** The columns, token and message rows the store writes for a record (as `rows.ts` does). */
function bind(record: QuestionRecord) {
  return [
    record.version,
    record.status,
    record.runId ?? null,
    record.target?.channel ?? null,
    record.target?.conversation ?? null,
    record.createdAt,
    record.expiresAt,
    0,
    JSON.stringify(record),
  ];
}

/**
 * The baseline: raw better-sqlite3 (WAL, synchronous = FULL) doing the store's SQL for the same
 * transitions, 64 per `BEGIN IMMEDIATE … COMMIT`, on the main thread; between two transactions the
 * event loop gets a turn, so its delay shows what a synchronous driver costs the loop. Also its CPU
 * time per transition (the store's writer thread does the same work plus the hand-off).
 */
export async function rawTransitions(path: string, records: QuestionRecord[]) {
  const db = new Raw(path);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  db.pragma("foreign_keys = ON");
  migrate(db as never);
  const insert = db.prepare(
    `INSERT INTO questions (version, status, run_id, target_channel, target_conversation, created_at,
       expires_at, needs_repair, record, id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const token = db.prepare("INSERT OR REPLACE INTO question_tokens (token, question_id) VALUES (?, ?)");
  const message = db.prepare(
    "INSERT OR REPLACE INTO question_messages (channel, conversation, message_id, question_id) VALUES (?, ?, ?, ?)",
  );
  const index = (r: QuestionRecord) => {
    for (const t of r.tokens) token.run(t, r.id);
    for (const d of r.deliveries) message.run(d.channel, d.conversation, d.messageId, r.id);
  };
  db.exec("BEGIN");
  for (const r of records) {
    insert.run(...bind(r), r.id);
    index(r);
  }
  db.exec("COMMIT");

  // What the store does for an answer: read the stored columns, set only those that change (status),
  // leave the token and message rows that are already right.
  db.pragma("ignore_check_constraints = ON");
  const current = db.prepare(
    `SELECT status, run_id, target_channel, target_conversation, created_at, expires_at, needs_repair
     FROM questions WHERE id = ? AND version = ?`,
  );
  const update = db.prepare(
    "UPDATE questions SET version = ?, status = ?, record = ? WHERE id = ? AND version = ?",
  );
  const tokensOf = db.prepare("SELECT token FROM question_tokens WHERE question_id = ?").pluck();
  const messagesOf = db.prepare(
    "SELECT channel, conversation, message_id FROM question_messages WHERE question_id = ?",
  );
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const cpu = cpuMicros(process.pid, process.pid);
  const start = performance.now();
  for (let at = 0; at < records.length; at += WRITERS) {
    db.exec("BEGIN IMMEDIATE");
    for (const r of records.slice(at, at + WRITERS)) {
      const next = answered(r);
      if (current.get(r.id, r.version) === undefined) throw new Error("raw: version moved");
      update.run(next.version, next.status, JSON.stringify(next), r.id, r.version);
      tokensOf.all(r.id);
      messagesOf.all(r.id);
    }
    db.exec("COMMIT");
    await new Promise((resolve) => setImmediate(resolve));
  }
  const perSecond = records.length / ((performance.now() - start) / 1000);
  const used = cpuMicros(process.pid, process.pid) - cpu;
  delay.disable();
  db.close();
  return { perSecond, p99Ms: delay.percentile(99) / 1e6, cpuMicros: used / records.length };
}

/** A `get` answered by another thread over its own connection: the round trip a thread read costs. */
export async function threadReads(path: string, ids: string[]): Promise<number[]> {
  const worker = new Worker(
    `const { parentPort, workerData } = require("node:worker_threads");
     const db = new (require(workerData.raw))(workerData.path, { readonly: true });
     const get = db.prepare("SELECT record FROM questions WHERE id = ?").pluck();
     parentPort.on("message", (id) => parentPort.postMessage(get.get(id)));`,
    { eval: true, workerData: { raw: RAW_PATH, path } },
  );
  const times: number[] = [];
  for (const id of ids) {
    const start = performance.now();
    const json = await new Promise<string>((resolve) => {
      worker.once("message", resolve);
      worker.postMessage(id);
    });
    JSON.parse(json);
    times.push(performance.now() - start);
  }
  await worker.terminate();
  return times;
}

/** Another connection, on its own thread, holding the write lock of `path` for `holdMs`. */
export async function holdLock(path: string, holdMs: number): Promise<{ released: Promise<void> }> {
  const worker = new Worker(
    `const { parentPort, workerData } = require("node:worker_threads");
     const db = new (require(workerData.raw))(workerData.path);
     db.exec("BEGIN IMMEDIATE");
     parentPort.postMessage("held");
     setTimeout(() => { db.exec("COMMIT"); db.close(); parentPort.postMessage("released"); }, workerData.holdMs);`,
    { eval: true, workerData: { raw: RAW_PATH, path, holdMs } },
  );
  await new Promise((resolve) => worker.once("message", resolve));
  const released = new Promise<void>((resolve) => worker.once("message", () => resolve()));
  return { released: released.then(() => worker.terminate()).then(() => undefined) };
}
