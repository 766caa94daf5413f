/**
 * The SQLite store's write figures, each beside its baseline: durable transitions with 64 concurrent
 * writers against raw better-sqlite3 committing the same rows 64 per transaction, the event loop's delay
 * under that load, reads on the main thread against a round trip to a thread, and a write waiting for
 * another connection's lock.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { createAskUser, type QuestionRecord } from "@ask-user/core";
import { createSqliteStore, type SqliteStore } from "@ask-user/sqlite";
import { cpuMicros } from "./machine.ts";
import { answered, holdLock, pending, Raw, rawTransitions, threadReads, WRITERS } from "./raw.ts";
import { print } from "./report.ts";
import { input } from "./samples.ts";
import { fmt, percentile, rate, row } from "./stats.ts";

const ROUNDS = 3;
const TRANSITIONS = WRITERS * 100;
const quiet = { warn() {}, error() {} };

const threads = () => new Set(readdirSync("/proc/self/task").map(Number));

/** A store on `path`, with the id of its writer thread (the thread it started), to read its CPU time. */
async function openStore(path: string): Promise<{ store: SqliteStore; writer: number | undefined }> {
  const before = threads();
  const store = createSqliteStore({ path });
  // The worker's thread is started at once; wait (bounded) until it shows in /proc.
  for (let i = 0; i < 100; i++) {
    const started = [...threads()].find((tid) => !before.has(tid));
    if (started !== undefined) return { store, writer: started };
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { store, writer: undefined };
}

/** The store answering the same transitions with `WRITERS` concurrent writers, a reader alongside. */
async function storeTransitions(
  { store, writer }: { store: SqliteStore; writer: number | undefined },
  records: QuestionRecord[],
) {
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
  const writerCpu = writer === undefined ? Number.NaN : cpuMicros(process.pid, writer);
  const mainCpu = cpuMicros(process.pid, process.pid);
  const perSecond = await rate(records.length, WRITERS, async (i) => {
    const record = records[i] as QuestionRecord;
    const start = performance.now();
    if (!(await store.compareAndSet(1, answered(record)))) throw new Error("store: version moved");
    latencies.push(performance.now() - start);
  });
  const writerMicros =
    writer === undefined ? Number.NaN : (cpuMicros(process.pid, writer) - writerCpu) / records.length;
  const mainMicros = (cpuMicros(process.pid, process.pid) - mainCpu) / records.length;
  delay.disable();
  writing = false;
  await reader;
  const after = store.stats();
  return {
    perSecond,
    writerMicros,
    mainMicros,
    p99Ms: delay.percentile(99) / 1e6,
    maxMs: delay.max / 1e6,
    latencies,
    reads,
    perGroup: (after.writes - before.writes) / (after.transactions - before.transactions),
  };
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

/** Prints the SQLite write figures. */
export async function sqliteFigures(dir: string): Promise<void> {
  const now = Date.now();

  // 1. Durable transitions with 64 concurrent writers, and the event loop meanwhile. The disk's fsync
  // time drifts from minute to minute on a shared VM: the raw loop and the store take turns, three
  // rounds each on fresh files, and the medians are compared.
  {
    const records = Array.from({ length: TRANSITIONS }, (_, i) => pending(i, now));
    const raws: Awaited<ReturnType<typeof rawTransitions>>[] = [];
    const runs: Awaited<ReturnType<typeof storeTransitions>>[] = [];
    let opened = await openStore(join(dir, "store-0.db"));
    for (let round = 0; round < ROUNDS; round++) {
      raws.push(await rawTransitions(join(dir, `raw-${round}.db`), records));
      if (round > 0) {
        await opened.store.close();
        opened = await openStore(join(dir, `store-${round}.db`));
      }
      runs.push(await storeTransitions(opened, records));
    }
    const { store } = opened;
    const median = (values: number[]) => percentile(values, 50);
    const storeRate = median(runs.map((r) => r.perSecond));
    const rawRate = median(raws.map((r) => r.perSecond));
    const list = (values: number[], digits = 0) => values.map((v) => fmt(v, digits)).join(", ");
    print(
      row(
        `SQLite durable transitions, ${WRITERS} concurrent writers`,
        storeRate,
        "transitions/s",
        `   (raw better-sqlite3, ${WRITERS} per transaction: ${fmt(rawRate)}/s; ratio ${(storeRate / rawRate).toFixed(2)}; goal ≥ 0.5)`,
      ),
    );
    const last = runs.at(-1) as Awaited<ReturnType<typeof storeTransitions>>;
    print(
      `${"".padEnd(52)} medians of ${ROUNDS} rounds each, store ${list(runs.map((r) => r.perSecond))} /s, raw ${list(raws.map((r) => r.perSecond))} /s; ${fmt(last.perGroup, 1)} writes per transaction; compare-and-set p50 ${fmt(percentile(last.latencies, 50), 1)} ms, p99 ${fmt(percentile(last.latencies, 99), 1)} ms`,
    );
    print(
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
    print(
      row(
        "writer thread CPU per durable compare-and-set",
        median(runs.map((r) => r.writerMicros)),
        "µs",
        `   (main thread ${fmt(median(runs.map((r) => r.mainMicros)))} µs; raw better-sqlite3, the same SQL, main thread: ${fmt(median(raws.map((r) => r.cpuMicros)))} µs; each including its share of the transaction's commit and fsync)`,
      ),
    );
    const reads = runs.flatMap((r) => r.reads);
    print(
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
    print(
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
    print(
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
    print(
      row(
        "longest event-loop gap, a write waiting 1 s for a lock",
        gap,
        "ms",
        `   (the same write made synchronously on the main thread: ${fmt(syncGap)} ms)`,
      ),
    );
    await store.close();
  }
}
