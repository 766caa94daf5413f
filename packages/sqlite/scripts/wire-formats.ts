/**
 * Which encoding of a group of writes is cheapest to hand to another thread and back: the main thread's
 * CPU per round trip (encode, postMessage, the answer's receive and decode) and the other thread's
 * (receive, decode to the writes the writer runs, encode and post the answer), without any SQL. Formats:
 * `objects` (the writes as they are, as before the flat encoding), `flat` (`wire.mjs`: one array of
 * primitives each way), `json` (that array as a JSON string), `packed` (that array as one
 * length-prefixed string). Medians of alternating rounds. Linux only (reads each thread's schedstat).
 *
 *   node --import tsx packages/sqlite/scripts/wire-formats.ts     (G=writes per group, N=groups a round)
 */
import { readFileSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { sampleRecord } from "@ask-user/core/testing";
import type { WireValue, WriteOp } from "../src/protocol.ts";
import { recordRows } from "../src/rows.ts";
import { decodeAnswers, encodeGroup } from "../src/writer.mjs";

const G = Number(process.env.G ?? 4);
const N = Number(process.env.N ?? 5000);
const ROUNDS = Number(process.env.ROUNDS ?? 7);

const cpu = () => Number(readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]) / 1000;
const worker = new Worker(new URL("./wire-formats-worker.mjs", import.meta.url));

/** Half creates, half answers, of questions as the HTTP route makes them. */
const ops: WriteOp[] = Array.from({ length: G }, (_, i) => {
  const { target: _target, ...record } = sampleRecord();
  if (i % 2 === 0) return { kind: "create", ...recordRows(record, JSON.stringify(record)) };
  const answered = { ...record, version: 2, status: "answered" as const };
  return { kind: "compareAndSet", expected: 1, ...recordRows(answered, JSON.stringify(answered)) };
});

function pack(values: WireValue[]): string {
  let packed = "";
  for (const value of values)
    packed +=
      typeof value === "string" ? `s${value.length};${value}` : value === null ? "z;" : `n${Number(value)};`;
  return packed;
}

const formats = {
  objects: (id: number) => ({ type: "group", id, ops }),
  flat: (id: number) => encodeGroup(id, ops),
  json: (id: number) => JSON.stringify(encodeGroup(id, ops)),
  packed: (id: number) => ({ packed: pack(encodeGroup(id, ops)) }),
};
type Format = keyof typeof formats;

function decode(format: Format, answer: unknown): void {
  let answered = 0;
  if (format === "objects") answered = (answer as { answers: unknown[] }).answers.length;
  else {
    const wire = format === "json" ? JSON.parse(answer as string) : answer;
    decodeAnswers(wire, () => answered++);
  }
  if (answered !== 1) throw new Error("no answer");
}

async function round(format: Format): Promise<[number, number]> {
  worker.postMessage("start");
  const start = cpu();
  for (let id = 0; id < N; id++) {
    const answered = new Promise<unknown>((resolve) => worker.once("message", resolve));
    worker.postMessage(formats[format](id));
    decode(format, await answered);
  }
  const main = (cpu() - start) / N;
  const other = new Promise<number>((resolve) => worker.once("message", resolve));
  worker.postMessage("cpu");
  return [main, (await other) / N];
}

const runs = Object.fromEntries(Object.keys(formats).map((f) => [f, [] as [number, number][]]));
for (let r = 0; r <= ROUNDS; r++)
  for (const format of Object.keys(formats) as Format[]) {
    const result = await round(format);
    if (r > 0) runs[format]?.push(result); // the first round warms up
  }
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
console.log(`groups of ${G} writes (records of ${JSON.stringify(ops[0]).length} B as objects), ${N} a round`);
for (const [format, rs] of Object.entries(runs))
  console.log(
    `${format.padEnd(8)} main thread ${median(rs.map((r) => r[0])).toFixed(1)} µs, other thread ${median(rs.map((r) => r[1])).toFixed(1)} µs per round trip`,
  );
await worker.terminate();
