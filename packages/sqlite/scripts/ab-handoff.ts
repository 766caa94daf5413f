/**
 * A/B of the main thread's cost of handing writes to the writer thread: the store's code of a git
 * revision (default: the one before the flat encoding) and of the working copy, in one process, taking
 * turns, on fresh files in /dev/shm (so the fsync costs nothing and the writer answers at once). Two
 * workloads, each printed as medians over the rounds:
 *
 * - `runner`: groups of `G` writes (half creates, half answers) made beforehand, handed to the writer
 *   thread's runner one at a time and awaited: the main thread's CPU per group is the hand-off alone
 *   (encode, postMessage, the answer's receive and decode, the promise).
 * - `store`: `C` concurrent clients each creating a question and answering it, through the whole store
 *   (JSON, rows, group commit, hand-off, subscribers): the main thread's CPU per create→answer cycle.
 *
 * Also prints the writer thread's CPU (the threads the store started, read from /proc). Linux only.
 *
 *   node --import tsx packages/sqlite/scripts/ab-handoff.ts [revision]
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { QuestionRecord } from "@ask-user/core/store";
import { sampleRecord } from "@ask-user/core/testing";
import type { GroupRunner } from "../src/group-commit.ts";
import type { WriteOp } from "../src/protocol.ts";
import { recordRows } from "../src/rows.ts";
import type { createSqliteStore as CreateStore } from "../src/store.ts";
import type { startWriterThread as StartWriter } from "../src/writer-thread.ts";

const revision = process.argv[2] ?? "2f88a42";
const G = Number(process.env.G ?? 4);
const GROUPS = Number(process.env.N ?? 4000);
const C = Number(process.env.C ?? 16);
const CYCLES = Number(process.env.CYCLES ?? 4000);
const ROUNDS = Number(process.env.ROUNDS ?? 7);

interface Variant {
  createSqliteStore: typeof CreateStore;
  startWriterThread: typeof StartWriter;
}

const PACKAGE = fileURLToPath(new URL("..", import.meta.url));
const git = (...args: string[]) =>
  execFileSync("git", args, { encoding: "utf8", cwd: join(PACKAGE, "../..") });
// The revision's sources beside the working copy's (in the package, so that they resolve its deps).
const baselineDir = mkdtempSync(join(PACKAGE, "scripts", ".baseline-"));
mkdirSync(join(baselineDir, "src"));
for (const file of git("ls-tree", "--name-only", `${revision}:packages/sqlite/src`).split("\n")) {
  if (file)
    writeFileSync(join(baselineDir, "src", file), git("show", `${revision}:packages/sqlite/src/${file}`));
}
const load = async (src: string): Promise<Variant> => ({
  ...(await import(pathToFileURL(join(src, "store.ts")).href)),
  ...(await import(pathToFileURL(join(src, "writer-thread.ts")).href)),
});
const variants: Record<string, Variant> = {
  [revision]: await load(join(baselineDir, "src")),
  "working copy": await load(join(PACKAGE, "src")),
};
const dataDir = mkdtempSync("/dev/shm/ask-user-ab-handoff-");
let files = 0;
const freshPath = () => join(dataDir, `${files++}.db`);

/** This thread's CPU time in µs (`schedstat`: ns on the CPU). */
const threadCpu = (task = "thread-self") =>
  Number(
    readFileSync(`/proc/${task === "thread-self" ? task : `self/task/${task}`}/schedstat`, "utf8").split(
      " ",
    )[0],
  ) / 1000;
const tasks = () => new Set(readdirSync("/proc/self/task"));
/** The CPU (µs) of the threads started since `before`: the store's writer thread. */
const newThreadsCpu = (before: Set<string>) =>
  [...tasks()].filter((t) => !before.has(t)).reduce((sum, t) => sum + threadCpu(t), 0);

/** A question as the HTTP route makes it (no target, one token) and its answer. */
function cycleRecords(): [QuestionRecord, QuestionRecord] {
  const { target: _target, ...record } = sampleRecord();
  return [record, { ...record, version: 2, status: "answered", answers: { deploy_target: ["Production"] } }];
}

/** Main-thread and writer CPU per group of `G` writes handed to the runner one group at a time. */
async function runnerRound(variant: Variant): Promise<[number, number]> {
  const path = freshPath();
  await variant.createSqliteStore({ path }).close(); // creates and migrates the file
  const before = tasks();
  const runner: GroupRunner = variant.startWriterThread({ path, busyTimeoutMs: 1000 });
  // Each group: its creates, then their answers.
  const groups: WriteOp[][] = [];
  for (let i = 0; i < GROUPS; i++) {
    const creates: WriteOp[] = [];
    const answers: WriteOp[] = [];
    for (let k = 0; k < G / 2; k++) {
      const [created, answered] = cycleRecords();
      creates.push({ kind: "create", ...recordRows(created, JSON.stringify(created)) });
      answers.push({ kind: "compareAndSet", expected: 1, ...recordRows(answered, JSON.stringify(answered)) });
    }
    groups.push([...creates, ...answers]);
  }
  const warm = await runner.run(groups[0] ?? []);
  if (!warm.ok) throw new Error(warm.error.message);
  const writerStart = newThreadsCpu(before);
  const start = threadCpu();
  for (const ops of groups.slice(1)) {
    runner.busy(true);
    const result = await runner.run(ops);
    if (!result.ok || result.outcomes.some((o) => !o.ok)) throw new Error("a write failed");
  }
  runner.busy(false);
  const main = (threadCpu() - start) / (GROUPS - 1);
  const writer = (newThreadsCpu(before) - writerStart) / (GROUPS - 1);
  await runner.close();
  return [main, writer];
}

/** Main-thread and writer CPU per create→answer cycle of `C` concurrent clients through the store. */
async function storeRound(variant: Variant): Promise<[number, number]> {
  const before = tasks();
  const store = variant.createSqliteStore({ path: freshPath() });
  let told = 0;
  store.subscribe(() => told++);
  const client = async (cycles: number) => {
    for (let i = 0; i < cycles; i++) {
      const [created, answered] = cycleRecords();
      await store.create(created);
      if (!(await store.compareAndSet(1, answered))) throw new Error("an answer was refused");
    }
  };
  await client(50); // warm up, and the writer thread is up
  const writerStart = newThreadsCpu(before);
  const start = threadCpu();
  await Promise.all(Array.from({ length: C }, () => client(Math.ceil(CYCLES / C))));
  const cycles = C * Math.ceil(CYCLES / C);
  const main = (threadCpu() - start) / cycles;
  const writer = (newThreadsCpu(before) - writerStart) / cycles;
  await store.close();
  if (told !== 2 * (cycles + 50)) throw new Error(`subscribers told ${told} times`);
  return [main, writer];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
try {
  for (const [name, round, unit] of [
    ["runner", runnerRound, `group of ${G} writes, one group in flight`],
    ["store", storeRound, `create→answer cycle, ${C} concurrent clients`],
  ] as const) {
    const runs: Record<string, [number, number][]> = {};
    for (const variant of Object.keys(variants)) runs[variant] = [];
    await round(variants["working copy"] as Variant); // warm up
    for (let r = 0; r < ROUNDS; r++)
      for (const [variant, code] of Object.entries(variants)) runs[variant]?.push(await round(code));
    console.log(`${name}: CPU per ${unit} (median of ${ROUNDS} rounds taking turns)`);
    for (const [variant, cpu] of Object.entries(runs))
      console.log(
        `  ${variant}: main thread ${median(cpu.map((c) => c[0])).toFixed(1)} µs (rounds ${cpu.map((c) => c[0].toFixed(1)).join(", ")}), writer thread ${median(cpu.map((c) => c[1])).toFixed(1)} µs`,
      );
  }
} finally {
  rmSync(baselineDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
}
