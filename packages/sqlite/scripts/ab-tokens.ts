/**
 * A/B of the action tokens' form on a store that already holds many questions: fully random tokens (96
 * bits, the form before tokens got a time prefix) against `newActionToken(now)` (a 16 ms time prefix,
 * then 72 random bits). Each variant gets a fresh durable file in the system's temporary folder, filled
 * with `PREFILL` answered questions, then measured: `C` concurrent clients each creating a question and
 * answering it, `CYCLES` cycles, through the whole store. Ids are time-ordered in both (as
 * `newQuestionId` makes them); only the tokens differ. Prints, per variant, the medians over `ROUNDS`
 * rounds taken in turns: cycles/s and the process's CPU (every thread) per cycle. Linux only.
 *
 *   node --conditions=source --import tsx packages/sqlite/scripts/ab-tokens.ts
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newActionToken } from "@ask-user/core/channel";
import type { QuestionRecord } from "@ask-user/core/store";
import { sampleRecord } from "@ask-user/core/testing";
import { createSqliteStore } from "../src/store.ts";

const PREFILL = Number(process.env.PREFILL ?? 200_000);
const CYCLES = Number(process.env.CYCLES ?? 20_000);
const C = Number(process.env.C ?? 16);
const ROUNDS = Number(process.env.ROUNDS ?? 3);

const variants = {
  "random tokens (96 bits)": () => randomBytes(12).toString("base64url"),
  "time-ordered tokens": () => newActionToken(Date.now()),
} satisfies Record<string, () => string>;
type Variant = keyof typeof variants;

/** The process's CPU time (every thread) in µs. */
function processCpu(): number {
  const stat = readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100;
}

let made = 0;
/** A question as the HTTP route makes it (a time-ordered id, no target, one token) and its answer. */
function cycleRecords(token: () => string): [QuestionRecord, QuestionRecord] {
  const { target: _target, ...sample } = sampleRecord();
  const now = Date.now();
  const record = {
    ...sample,
    id: `${now.toString(36)}${(made++).toString(36).padStart(8, "0")}`,
    createdAt: now,
    expiresAt: now + 900_000,
    tokens: [token()],
  };
  return [record, { ...record, version: 2, status: "answered", answers: { deploy_target: ["Production"] } }];
}

/** `count` create→answer cycles by `clients` concurrent clients. */
async function cycles(
  store: ReturnType<typeof createSqliteStore>,
  token: () => string,
  count: number,
  clients: number,
): Promise<void> {
  let left = count;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (left-- > 0) {
        const [created, answered] = cycleRecords(token);
        await store.create(created);
        if (!(await store.compareAndSet(1, answered))) throw new Error("the answer's compare-and-set failed");
      }
    }),
  );
}

const dir = mkdtempSync(join(tmpdir(), "ask-user-ab-tokens-"));
const results: Record<Variant, { perSecond: number; cpu: number }[]> = {
  "random tokens (96 bits)": [],
  "time-ordered tokens": [],
};
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const variant of Object.keys(variants) as Variant[]) {
      const store = createSqliteStore({ path: join(dir, `${round}-${variant.split(" ")[0]}.db`) });
      try {
        await cycles(store, variants[variant], PREFILL, 256);
        const [cpu, start] = [processCpu(), performance.now()];
        await cycles(store, variants[variant], CYCLES, C);
        const seconds = (performance.now() - start) / 1000;
        results[variant].push({ perSecond: CYCLES / seconds, cpu: (processCpu() - cpu) / CYCLES });
      } finally {
        await store.close();
      }
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
console.log(
  `# ${PREFILL.toLocaleString("en")} questions stored, then ${CYCLES.toLocaleString("en")} cycles by ${C} clients; medians of ${ROUNDS} rounds`,
);
for (const [variant, figures] of Object.entries(results)) {
  const perSecond = median(figures.map((f) => f.perSecond));
  const cpu = median(figures.map((f) => f.cpu));
  console.log(
    `${variant.padEnd(24)} ${perSecond.toFixed(0).padStart(6)} cycles/s   ${cpu.toFixed(0)} µs CPU a cycle`,
  );
}
