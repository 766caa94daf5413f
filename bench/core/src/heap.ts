/**
 * Heap bytes per pending question on the memory store, measured in a process of its own (run by
 * `run.ts` with `--expose-gc` and a large enough `--max-old-space-size`): `count` questions are asked
 * through the broker (the stored record, its indexes and its deadline entry) and `heapUsed` is read after
 * a full collection, before and after. Prints one JSON line: { count, bytesPerQuestion, jsonBytes, ms }.
 */
import { createAskUser, createMemoryStore } from "@ask-user/core";
import { gc } from "./measure.ts";

const count = Number(process.argv[2] ?? 1_000_000);
const input = {
  questions: [
    {
      id: "deploy_target",
      header: "Deploy",
      question: "Where should I deploy?",
      options: [{ label: "Staging (Recommended)", description: "Safe, reversible" }, { label: "Production" }],
    },
    {
      id: "regions",
      header: "Regions",
      question: "Which regions?",
      options: [{ label: "EU" }, { label: "US" }, { label: "Asia" }],
      multiSelect: true,
    },
  ],
  timeoutSeconds: 600,
};

const broker = createAskUser({ store: createMemoryStore(), channels: [], logger: { warn() {}, error() {} } });
await broker.ready;
gc();
const before = process.memoryUsage().heapUsed;
const start = performance.now();
for (let k = 0; k < count; k++) await broker.create(input, { runId: `run-${k % 100}` });
const ms = performance.now() - start;
await new Promise((resolve) => setImmediate(resolve));
gc();
const after = process.memoryUsage().heapUsed;
const sample = await broker.list({ status: "pending" }, { limit: 1000 });
const jsonBytes = JSON.stringify(sample).length / sample.length;
if ((await broker.list({ status: "pending" }, { limit: count + 1 })).length !== count)
  throw new Error("not every question is pending");
console.log(JSON.stringify({ count, bytesPerQuestion: (after - before) / count, jsonBytes, ms }));
await broker.close();
