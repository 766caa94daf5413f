/**
 * The gateway child's memory for `mcp-waiters.ts`: a preload answers SIGUSR2 with a full GC and writes
 * the heap in use, the RSS and its own GC pauses since the last reading (and, when asked, a heap
 * snapshot); {@link measure} takes that reading.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import type { GatewayProcess } from "@ask-user/gateway/testing";
import { SOURCE_NODE_OPTIONS } from "./children.ts";
import { rssBytes } from "./machine.ts";
import { dropIdleSockets, waitFor } from "./mcp-http.ts";

/**
 * Loaded into the gateway child: on SIGUSR2 it runs a full GC, then writes the heap in use and the RSS
 * (and, with a snapshot path, a heap snapshot) to the file named by ASK_USER_BENCH_MEM_FILE.
 */
const PRELOAD = `
import { renameSync, writeFileSync } from "node:fs";
import v8 from "node:v8";
import vm from "node:vm";
v8.setFlagsFromString("--expose-gc");
import { PerformanceObserver } from "node:perf_hooks";
const gc = vm.runInNewContext("gc");
// The gateway's own GC pauses since the last reading (the forced ones of a reading left out).
let forced = false;
let pauses = { max: 0, over20: 0 };
new PerformanceObserver((list) => {
  if (forced) return;
  for (const entry of list.getEntries()) {
    pauses.max = Math.max(pauses.max, entry.duration);
    if (entry.duration > 20) pauses.over20++;
  }
}).observe({ entryTypes: ["gc"] });
process.on("SIGUSR2", () => {
  const since = pauses;
  forced = true;
  gc();
  gc();
  setTimeout(() => { forced = false; pauses = { max: 0, over20: 0 }; }, 0);
  const out = process.env.ASK_USER_BENCH_MEM_FILE;
  let snapshot;
  if (process.env.ASK_USER_BENCH_SNAPSHOT) snapshot = v8.writeHeapSnapshot(out + "." + Date.now() + ".heapsnapshot");
  const heap = v8.getHeapStatistics().used_heap_size;
  const { rss, external } = process.memoryUsage();
  writeFileSync(out + ".tmp", JSON.stringify({ heap, rss, external, snapshot, pauses: since }));
  renameSync(out + ".tmp", out);
});
`;
/** Where the preload and the readings are written (removed by the caller unless snapshots are kept). */
export const work = mkdtempSync(join(tmpdir(), "mcp-waiters-"));
const preload = join(work, "preload.mjs");
writeFileSync(preload, PRELOAD);

/**
 * The environment of a gateway child whose memory {@link measure} reads: the bench's code under test
 * (sources or dist, see `children.ts`) plus the preload; `snapshots` also writes a heap snapshot a reading.
 */
export function memoryEnv(snapshots: boolean): Record<string, string> {
  return {
    NODE_OPTIONS: `${SOURCE_NODE_OPTIONS} --import=${preload}`,
    ASK_USER_BENCH_MEM_FILE: join(work, "mem.json"),
    ...(snapshots ? { ASK_USER_BENCH_SNAPSHOT: "1" } : {}),
  };
}

/** The gateway's memory at one moment: V8 heap in use after a full GC, and RSS. */
export interface Reading {
  heap: number;
  rss: number;
  /** The gateway's GC pauses since the previous reading (not counting the forced GC of a reading). */
  pauses?: { max: number; over20: number };
}

/**
 * Reads the child's memory after a full GC (the preload answers SIGUSR2): the heap in use, then RSS
 * as the lowest of a few readings a moment apart (garbage not yet collected left out, as in the heap).
 */
export async function measure(gateway: GatewayProcess, label: string): Promise<Reading> {
  const pid = gateway.child.pid as number;
  const file = join(work, "mem.json");
  rmSync(file, { force: true });
  process.kill(pid, "SIGUSR2");
  await waitFor(`the gateway's memory reading (${label})`, () => existsSync(file), 120_000);
  const read = JSON.parse(readFileSync(file, "utf8")) as Reading & { snapshot?: string };
  if (read.snapshot) console.log(`  heap snapshot (${label}): ${read.snapshot}`);
  let rss = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 5; i++) {
    await new Promise((resolve) => setTimeout(resolve, 400));
    rss = Math.min(rss, rssBytes(pid));
  }
  dropIdleSockets();
  return { heap: read.heap, rss, ...(read.pauses ? { pauses: read.pauses } : {}) };
}

/** (b - a) / count, per field. */
export function per(a: Reading, b: Reading, count: number): Reading {
  return { heap: (b.heap - a.heap) / count, rss: (b.rss - a.rss) / count };
}
