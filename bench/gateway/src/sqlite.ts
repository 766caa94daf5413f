/**
 * The SQLite store's figures, each beside its baseline: durable transitions with 64 concurrent writers
 * against raw better-sqlite3 committing the same rows 64 per transaction, the event loop's delay under
 * that load, reads on the main thread against a round trip to a thread, and reloading 100,000 pending
 * questions at start.
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import { createAskUser, normalizeAskUserInput, type QuestionRecord } from "@ask-user/core";
import { createSqliteStore, migrate, type SqliteStore } from "@ask-user/sqlite";

/** The few calls of better-sqlite3 the baselines make (it is @ask-user/sqlite's dependency, not ours). */
interface RawStatement {
  run(...params: unknown[]): { changes: number };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  pluck(): RawStatement;
}
interface RawDatabase {
  pragma(source: string): unknown;
  exec(source: string): void;
  prepare(source: string): RawStatement;
  close(): void;
}
type RawConstructor = new (path: string) => RawDatabase;
const requireFromStore = createRequire(import.meta.resolve("@ask-user/sqlite"));
const Raw = requireFromStore("better-sqlite3") as RawConstructor;
const RAW_PATH = requireFromStore.resolve("better-sqlite3");

const WRITERS = 64;
const ROUNDS = 3;
const TRANSITIONS = WRITERS * 100;
const RELOAD = 100_000;
const quiet = { warn() {}, error() {} };

const input = {
  questions: [
    {
      id: "deploy_target",
      header: "Deploy",
      question: "Where should I deploy?",
      options: [{ label: "Staging (Recommended)", description: "Safe" }, { label: "Production" }],
    },
  ],
};
const prompt = normalizeAskUserInput(input);

/** A pending question as the gateway stores it, with a token and a delivered prompt. */
function pending(i: number, now: number): QuestionRecord {
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

function answered(record: QuestionRecord): QuestionRecord {
  return {
    ...record,
    version: record.version + 1,
    status: "answered",
    answers: { deploy_target: ["Production"] },
    resolvedBy: { channel: "telegram", userId: "7", displayName: "@alice" },
    resolvedAt: record.createdAt + 1,
  };
}

/** Runs `work` with `concurrency` callers until `count` calls are done; returns calls per second. */
async function rate(count: number, concurrency: number, work: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await work(next++);
    }),
  );
  return count / ((performance.now() - start) / 1000);
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
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
 * event loop gets a turn, so its delay shows what a synchronous driver costs the loop.
 */
async function rawTransitions(path: string, records: QuestionRecord[]) {
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

  const current = db.prepare("SELECT status FROM questions WHERE id = ? AND version = ?").pluck();
  const update = db.prepare(
    `UPDATE questions SET version = ?, status = ?, run_id = ?, target_channel = ?, target_conversation = ?,
       created_at = ?, expires_at = ?, needs_repair = ?, record = ? WHERE id = ? AND version = ?`,
  );
  const dropTokens = db.prepare("DELETE FROM question_tokens WHERE question_id = ?");
  const dropMessages = db.prepare("DELETE FROM question_messages WHERE question_id = ?");
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const start = performance.now();
  for (let at = 0; at < records.length; at += WRITERS) {
    db.exec("BEGIN IMMEDIATE");
    for (const r of records.slice(at, at + WRITERS)) {
      const next = answered(r);
      if (current.get(r.id, r.version) === undefined) throw new Error("raw: version moved");
      update.run(...bind(next), r.id, r.version);
      dropTokens.run(r.id);
      dropMessages.run(r.id);
      index(next);
    }
    db.exec("COMMIT");
    await new Promise((resolve) => setImmediate(resolve));
  }
  const perSecond = records.length / ((performance.now() - start) / 1000);
  delay.disable();
  db.close();
  return { perSecond, p99Ms: delay.percentile(99) / 1e6 };
}

/** The store answering the same transitions with `WRITERS` concurrent writers, a reader alongside. */
async function storeTransitions(store: SqliteStore, records: QuestionRecord[]) {
  await rate(records.length, 512, async (i) => store.create(records[i] as QuestionRecord));
  const before = store.stats();
  const latencies: number[] = [];
  const reads: number[] = [];
  let writing = true;
  const reader = (async () => {
    // A read every millisecond or so while the writers run: what a tap's look-up waits.
    while (writing) {
      const id = records[Math.floor(Math.random() * records.length)]?.id ?? "";
      const start = performance.now();
      await store.get(id);
      reads.push(performance.now() - start);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  })();
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const perSecond = await rate(records.length, WRITERS, async (i) => {
    const record = records[i] as QuestionRecord;
    const start = performance.now();
    if (!(await store.compareAndSet(1, answered(record)))) throw new Error("store: version moved");
    latencies.push(performance.now() - start);
  });
  delay.disable();
  writing = false;
  await reader;
  const after = store.stats();
  return {
    perSecond,
    p99Ms: delay.percentile(99) / 1e6,
    maxMs: delay.max / 1e6,
    latencies,
    reads,
    perGroup: (after.writes - before.writes) / (after.transactions - before.transactions),
  };
}

/** A `get` answered by another thread over its own connection: the round trip a thread read costs. */
async function threadReads(path: string, ids: string[]): Promise<number[]> {
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
async function holdLock(path: string, holdMs: number): Promise<{ released: Promise<void> }> {
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

/** The longest gap between ticks of a 10 ms timer while `work` runs. */
async function longestGap(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 10);
  await work();
  clearInterval(timer);
  return Math.max(longest, performance.now() - last);
}

/** Prints the SQLite figures with `row(name, value, unit, extra)`. */
export async function sqliteFigures(
  dir: string,
  row: (name: string, value: number, unit: string, extra?: string) => string,
): Promise<void> {
  const now = Date.now();
  const fmt = (n: number, digits = 0) =>
    n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });

  // 1. Durable transitions with 64 concurrent writers, and the event loop meanwhile. The disk's fsync
  // time drifts from minute to minute on a shared VM: the raw loop and the store take turns, three
  // rounds each on fresh files, and the medians are compared.
  {
    const records = Array.from({ length: TRANSITIONS }, (_, i) => pending(i, now));
    const raws: Awaited<ReturnType<typeof rawTransitions>>[] = [];
    const runs: Awaited<ReturnType<typeof storeTransitions>>[] = [];
    let store = createSqliteStore({ path: join(dir, "store-0.db") });
    for (let round = 0; round < ROUNDS; round++) {
      raws.push(await rawTransitions(join(dir, `raw-${round}.db`), records));
      if (round > 0) {
        await store.close();
        store = createSqliteStore({ path: join(dir, `store-${round}.db`) });
      }
      runs.push(await storeTransitions(store, records));
    }
    const median = (values: number[]) => percentile(values, 50);
    const storeRate = median(runs.map((r) => r.perSecond));
    const rawRate = median(raws.map((r) => r.perSecond));
    const list = (values: number[], digits = 0) => values.map((v) => fmt(v, digits)).join(", ");
    console.log(
      row(
        `SQLite durable transitions, ${WRITERS} concurrent writers`,
        storeRate,
        "transitions/s",
        `   (raw better-sqlite3, ${WRITERS} per transaction: ${fmt(rawRate)}/s; ratio ${(storeRate / rawRate).toFixed(2)}; goal ≥ 0.5)`,
      ),
    );
    const last = runs.at(-1) as Awaited<ReturnType<typeof storeTransitions>>;
    console.log(
      `${"".padEnd(52)} medians of ${ROUNDS} rounds each, store ${list(runs.map((r) => r.perSecond))} /s, raw ${list(raws.map((r) => r.perSecond))} /s; ${fmt(last.perGroup, 1)} writes per transaction; compare-and-set p50 ${fmt(percentile(last.latencies, 50), 1)} ms, p99 ${fmt(percentile(last.latencies, 99), 1)} ms`,
    );
    console.log(
      row(
        "p99 event-loop delay under that write load",
        median(runs.map((r) => r.p99Ms)),
        "ms",
        `   (rounds ${list(
          runs.map((r) => r.p99Ms),
          1,
        )} ms, max ${fmt(Math.max(...runs.map((r) => r.maxMs)), 1)} ms; raw better-sqlite3 on the main thread: p99 ${list(
          raws.map((r) => r.p99Ms),
          1,
        )} ms; goal ≤ 20)`,
      ),
    );
    const reads = runs.flatMap((r) => r.reads);
    console.log(
      row(
        "get() on the main thread under that write load, p99",
        percentile(reads, 99) * 1000,
        "µs",
        `   (p50 ${fmt(percentile(reads, 50) * 1000)} µs over ${fmt(reads.length)} reads; a read sent to the writer thread would wait behind its group: p50 ${fmt(percentile(last.latencies, 50), 1)} ms)`,
      ),
    );

    // Reads: the main thread's connection against a round trip to another thread, the store idle.
    const ids = records.slice(0, 5_000).map((r) => r.id);
    const local: number[] = [];
    for (const id of ids) {
      const start = performance.now();
      await store.get(id);
      local.push(performance.now() - start);
    }
    const remote = await threadReads(store.path, ids);
    console.log(
      row(
        "get() on the main thread (store idle), p50",
        percentile(local, 50) * 1000,
        "µs",
        `   (round trip to a reader thread: p50 ${fmt(percentile(remote, 50) * 1000)} µs; ratio ${(percentile(remote, 50) / percentile(local, 50)).toFixed(1)}× slower)`,
      ),
    );

    // The broker's answer path (get + compare-and-set + bookkeeping) on the same store.
    const broker = createAskUser({ store, channels: [], logger: quiet });
    await broker.ready;
    const asked: QuestionRecord[] = [];
    for (let i = 0; i < 2_000; i++) asked.push(await broker.create(input, {}));
    const actor = { channel: "bench", userId: "b" };
    const answer = (i: number) =>
      broker.answer((asked[i] as QuestionRecord).id, { deploy_target: ["Production"] }, actor).then(() => {});
    const one = await rate(500, 1, answer);
    const many = await rate(1_500, WRITERS, (i) => answer(500 + i));
    console.log(
      row(
        `broker answers (durable), ${WRITERS} concurrent`,
        many,
        "answers/s",
        `   (one at a time: ${fmt(one)}/s)`,
      ),
    );
    await broker.close();

    // A write while another connection holds the write lock for 1 s: the event loop meanwhile, against
    // the same write made synchronously on the main thread (the store before the writer thread).
    const held = await holdLock(store.path, 1_000);
    const lastRecord = records.at(-1) as QuestionRecord;
    const gap = await longestGap(async () => {
      await store.compareAndSet(2, { ...answered(answered(lastRecord)), status: "cancelled" });
      await held.released;
    });
    const sync = new Raw(store.path);
    sync.pragma("busy_timeout = 30000");
    const heldAgain = await holdLock(store.path, 1_000);
    const syncGap = await longestGap(async () => {
      sync.prepare("INSERT INTO seen_keys (key, expires_at) VALUES ('bench', 0)").run();
      await heldAgain.released;
    });
    sync.close();
    console.log(
      row(
        "longest event-loop gap, a write waiting 1 s for a lock",
        gap,
        "ms",
        `   (the same write made synchronously on the main thread: ${fmt(syncGap)} ms)`,
      ),
    );
    await store.close();
  }

  // 2. Reloading 100,000 pending questions at start.
  {
    const path = join(dir, "reload.db");
    const store = createSqliteStore({ path });
    const creates = await rate(RELOAD, 1_024, (i) => store.create(pending(i, now)));
    await store.close();
    console.log(row(`create ${fmt(RELOAD)} questions, 1,024 concurrent (durable)`, creates, "creates/s"));

    // Three rounds each, taking turns; each round's records are let go before the next round, so that
    // neither side pays for the garbage of the other.
    const rawTimes: number[] = [];
    const storeTimes: number[] = [];
    let reopened = createSqliteStore({ path });
    await reopened.close();
    const rawReload = () => {
      const start = performance.now();
      const raw = new Raw(path);
      const rows = raw
        .prepare("SELECT record FROM questions WHERE status = 'pending' ORDER BY created_at, id")
        .pluck()
        .all() as string[];
      const parsed = rows.map((json) => JSON.parse(json) as QuestionRecord);
      raw.close();
      rawTimes.push(performance.now() - start);
      return parsed.length;
    };
    const storeReload = async () => {
      const start = performance.now();
      reopened = createSqliteStore({ path });
      const listed = await reopened.list({ status: "pending" });
      storeTimes.push(performance.now() - start);
      return listed.length;
    };
    for (let round = 0; round < ROUNDS; round++) {
      if (rawReload() !== RELOAD) throw new Error("raw reload: not every question");
      if ((await storeReload()) !== RELOAD) throw new Error("reload: not every question");
      if (round < ROUNDS - 1) await reopened.close();
    }
    const listMs = percentile(storeTimes, 50);
    const rawMs = percentile(rawTimes, 50);
    const times = (values: number[]) => values.map((v) => fmt(v)).join(", ");
    console.log(
      row(
        `reload ${fmt(RELOAD)} pending (open + list({ status: "pending" }))`,
        listMs,
        "ms",
        `   (raw better-sqlite3 SELECT + JSON.parse: ${fmt(rawMs)} ms; ratio ${(listMs / rawMs).toFixed(2)}; goal ≤ 1,000 ms; medians of the rounds: store ${times(storeTimes)}, raw ${times(rawTimes)} ms)`,
      ),
    );
    const brokerStart = performance.now();
    const broker = createAskUser({ store: reopened, channels: [], logger: quiet });
    await broker.ready;
    console.log(
      row(
        `broker ready over ${fmt(RELOAD)} pending (deadlines, repair sweep)`,
        performance.now() - brokerStart,
        "ms",
      ),
    );
    await broker.close();
    await reopened.close();
  }
}
