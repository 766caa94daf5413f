/**
 * The gateway's benchmarks (`pnpm bench`): each figure beside its baseline as a ratio, in one run.
 * Results go to `results/latest.txt`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os, { tmpdir } from "node:os";
import { join } from "node:path";
import { httpFigure, type Measured } from "./http.ts";
import { reloadFigures } from "./reload.ts";
import { routingFigures } from "./routing.ts";
import { sqliteFigures } from "./sqlite.ts";
import { fmt, row } from "./stats.ts";

const CLIENTS = 16;
const CYCLES = 4_000;
const dir = mkdtempSync(join(tmpdir(), "ask-user-bench-"));
const indent = "".padEnd(52);
const started = performance.now();

console.log(`# gateway benchmarks — ${new Date().toISOString()}`);
console.log(
  `# machine: ${os.cpus().length} × ${os.cpus()[0]?.model}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; load average ${os.loadavg()[0]?.toFixed(2)}`,
);
console.log("");

// 1. create → answer over HTTP, against a bare node:http server doing the same round trips (2 a cycle).
{
  const figure = await httpFigure(dir, CLIENTS, CYCLES);
  const { bare, hono, memoryStore, inMemory, durable } = figure;
  const ratio = durable.perSecond / bare.perSecond;
  console.log(
    row(
      `HTTP create→answer cycles (SQLite, ${CLIENTS} clients)`,
      durable.perSecond,
      "cycles/s",
      `   (bare node:http: ${fmt(bare.perSecond)}/s; ratio ${ratio.toFixed(3)}; goal ≥ 0.5)`,
    ),
  );
  const cpu = (m: Measured) => `${fmt(m.cpuMicros)} µs`;
  const of = (m: Measured) =>
    `${cpu(m)} (${fmt(m.perSecond)}/s, ${(m.perSecond / bare.perSecond).toFixed(2)}×)`;
  console.log(
    `${indent} CPU per cycle (client included, every thread) and throughput: bare node:http ${of(bare)}, Hono on @hono/node-server doing nothing ${of(hono)}, the gateway on core's memory store ${of(memoryStore)}, on SQLite :memory: ${of(inMemory)}, on a SQLite file ${cpu(durable)}`,
  );
  if (ratio < 0.5) {
    console.log(
      `${indent} why below 0.5: the HTTP layer and broker alone (core's memory store) reach ${(memoryStore.perSecond / bare.perSecond).toFixed(2)}× bare at ${cpu(memoryStore)} a cycle against ${cpu(hono)} for the framework doing nothing; on a SQLite file each cycle also waits for two group commits in turn (create, then answer), each an fsync shared by at most ${CLIENTS} requests in flight, and the writer thread's CPU (${cpu(durable)} a cycle in all) competes with the event loop for the two cores`,
    );
  }
}

// 2. The SQLite store: durable transitions, the event loop under load, reads, a held lock.
await sqliteFigures(dir);

// 3. Reloading 100,000 pending questions at start.
await reloadFigures(dir);

// 4. Reply routing with 100,000 ended questions in the conversation, on SQLite and Redis.
for (const figure of await routingFigures(dir)) {
  console.log(
    row(
      `route a reply, 100,000 ended in the chat (${figure.store}), p50`,
      figure.busyMs * 1000,
      "µs",
      `   (none ended: ${fmt(figure.quietMs * 1000)} µs; ratio ${(figure.busyMs / figure.quietMs).toFixed(2)}; goal ≤ 2; p99 ${fmt(figure.busyP99Ms, 1)} vs ${fmt(figure.quietP99Ms, 1)} ms; the routing read alone ${fmt(figure.busyReadMs * 1000)} vs ${fmt(figure.quietReadMs * 1000)} µs)`,
    ),
  );
}

rmSync(dir, { recursive: true, force: true });
console.log("");
console.log(`# ${((performance.now() - started) / 1000).toFixed(0)} s`);
