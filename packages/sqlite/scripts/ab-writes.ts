/**
 * A/B of what the writer costs per create→answer cycle: the same creates and answers, `G` of each per
 * transaction, through the writer and schema of a git revision (default: the one before the partial
 * indexes) and of the working copy, on fresh files, taking turns. Prints this thread's CPU per cycle
 * (the writer runs here, no thread hand-off), min and each round. `SYNC=OFF` (default) leaves the
 * fsync out, only to measure the SQL; `PAD` adds that many bytes to each record's JSON.
 *
 *   node --import tsx packages/sqlite/scripts/ab-writes.ts [revision]
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { QuestionRecord } from "@ask-user/core/store";
import { sampleRecord } from "@ask-user/core/testing";
import Sqlite from "better-sqlite3";
import { MIGRATIONS, migrate } from "../src/migrations.ts";
import type { Writer } from "../src/protocol.ts";
import { recordRows } from "../src/rows.ts";
import { configureWriter, createWriter } from "../src/writer.mjs";

const revision = process.argv[2] ?? "8df59d3";
const SYNC = process.env.SYNC ?? "OFF";
const G = Number(process.env.G ?? 6);
const CYCLES = Number(process.env.N ?? 3000);
const ROUNDS = Number(process.env.ROUNDS ?? 9);
const PAD = Number(process.env.PAD ?? 0);

const dir = mkdtempSync(join(tmpdir(), "ask-user-ab-"));
// From the repository's root: `ls-tree` takes its paths from the working directory.
const root = fileURLToPath(new URL("../../..", import.meta.url));
const git = (...args: string[]) => execFileSync("git", args, { encoding: "utf8", cwd: root });
// The writer and what it imports (`wire.mjs` since the flat encoding).
for (const file of ["writer.mjs", "wire.mjs"]) {
  const source = `${revision}:packages/sqlite/src/${file}`;
  const exists = git("ls-tree", "--name-only", revision, `packages/sqlite/src/${file}`).trim() !== "";
  if (exists) writeFileSync(join(dir, file), git("show", source));
}
const baseline = (await import(pathToFileURL(join(dir, "writer.mjs")).href)) as {
  createWriter(db: Sqlite.Database): Writer;
};
// The baseline's schema: as many migrations as it shipped.
const baselineVersion = (
  git("show", `${revision}:packages/sqlite/src/migrations.ts`).match(/version: \d+,/g) ?? []
).length;

/** Questions as the gateway's HTTP route makes them: no target, no run, one token, nothing delivered. */
function records(): QuestionRecord[] {
  return Array.from({ length: CYCLES }, (_, i) => {
    const { target: _target, ...record } = sampleRecord({ id: `q${i}-${"x".repeat(14)}`, tokens: [`T${i}`] });
    return PAD > 0 ? ({ ...record, note: "x".repeat(PAD) } as QuestionRecord) : record;
  });
}

function once(variant: "baseline" | "current"): number {
  const path = join(dir, `${variant}.db`);
  for (const file of [path, `${path}-wal`, `${path}-shm`]) rmSync(file, { force: true });
  const db = new Sqlite(path);
  configureWriter(db, 1000);
  if (variant === "baseline") db.pragma("ignore_check_constraints = OFF");
  migrate(db, variant === "baseline" ? MIGRATIONS.slice(0, baselineVersion) : MIGRATIONS);
  db.pragma(`synchronous = ${SYNC}`);
  const writer = variant === "baseline" ? baseline.createWriter(db) : createWriter(db);
  const created = records();
  const answered = created.map((r): QuestionRecord => ({ ...r, version: 2, status: "answered" }));
  const cpu = process.cpuUsage();
  for (let at = 0; at < CYCLES; at += G) {
    const creates = created
      .slice(at, at + G)
      .map((r) => ({ kind: "create" as const, ...recordRows(r, JSON.stringify(r)) }));
    const answers = answered
      .slice(at, at + G)
      .map((r) => ({ kind: "compareAndSet" as const, expected: 1, ...recordRows(r, JSON.stringify(r)) }));
    const a = writer.run(creates);
    const b = writer.run(answers);
    if (!a.ok || !b.ok || b.outcomes.some((o) => !o.ok || o.value !== "pending"))
      throw new Error("a write failed");
  }
  const used = process.cpuUsage(cpu);
  db.close();
  return (used.user + used.system) / CYCLES;
}

const runs = { baseline: [] as number[], current: [] as number[] };
once("current"); // warm up
for (let round = 0; round < ROUNDS; round++)
  for (const variant of ["baseline", "current"] as const) runs[variant].push(once(variant));
rmSync(dir, { recursive: true, force: true });
const json = JSON.stringify(records()[0]).length;
console.log(
  `synchronous=${SYNC}, ${G} creates then ${G} answers per transaction, ${CYCLES} cycles, records of ${json} B`,
);
for (const [variant, cpu] of Object.entries(runs))
  console.log(
    `${variant === "baseline" ? revision : "working copy"}: ${Math.min(...cpu).toFixed(1)} µs CPU per cycle (min; rounds ${cpu.map((c) => c.toFixed(0)).join(", ")})`,
  );
