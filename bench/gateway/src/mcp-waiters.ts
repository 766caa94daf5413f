/**
 * N MCP agents waiting at once on one gateway (issue #23): each in its own MCP session over Streamable
 * HTTP with `ask_user` in flight (with a progressToken, as real clients send). The gateway runs in a
 * child process (`ask-user start`, memory store) so that its memory is measured alone; this process is
 * the agents. Memory is read in the child after a full GC (V8 heap in use, and RSS) through a small
 * preload that answers SIGUSR2 (it also reports the gateway's own GC pauses since the previous
 * reading, to tell a GC pause from a loaded machine). Prints the open-file limit, the gateway's memory per waiting session
 * beside the goal of 32 KB, and answer → tool result latency (p50/p99) with 16 answering clients beside
 * the goal of 50 ms; then the same for N HTTP long-poll waiters (`GET /v1/questions/:id?wait=`) on a
 * fresh gateway as the baseline. Both runs are measured the same way — from an idle gateway to N
 * waiting, each waiter's question included — and the baseline also measures its questions alone (they
 * are created first there), which gives the cost of a waiter without its question on both sides.
 *
 *   cd bench/gateway && node --conditions=source --import tsx src/mcp-waiters.ts [N] [--no-baseline]
 *     [--heap-snapshot]   also writes a heap snapshot of the gateway at each reading (paths printed)
 */
import { execFileSync, spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import process from "node:process";
import { type GatewayProcess, kill9, startGatewayProcess } from "@ask-user/gateway/testing";
import { agent, failed, failures, send, waitFor } from "./mcp-http.ts";
import { measure, memoryEnv, per, type Reading, work } from "./mcp-memory.ts";
import { percentile, pool } from "./stats.ts";

const RAISED = "ASK_USER_BENCH_NOFILE_RAISED";
const ANSWERING_CLIENTS = 16;
const OPENING_CONCURRENCY = 256;
const GOAL_BYTES = 32 * 1024;
const GOAL_P99_MS = 50;

const args = process.argv.slice(2);
const n = Number(args.find((a) => /^\d+$/.test(a)) ?? 10_000);
const baseline = !args.includes("--no-baseline");
const snapshots = args.includes("--heap-snapshot");

// Raise the soft open-file limit to the hard one: re-run this script under `ulimit -n <hard>`.
if (process.env[RAISED] === undefined) {
  const script = 'ulimit -n "$(ulimit -Hn)"; exec "$0" "$@"';
  const argv = [...process.execArgv, ...process.argv.slice(1)];
  const run = spawnSync("sh", ["-c", script, process.execPath, ...argv], {
    stdio: "inherit",
    env: { ...process.env, [RAISED]: "1" },
  });
  process.exit(run.status ?? 1);
}

const input = {
  questions: [
    {
      id: "deploy_target",
      header: "Deploy",
      question: "Where should I deploy?",
      options: [{ label: "Staging (Recommended)" }, { label: "Production" }],
    },
  ],
  timeoutSeconds: 3600,
};
async function startGateway(): Promise<GatewayProcess> {
  const gateway = await startGatewayProcess(
    {
      ASK_USER_DB: ":memory:",
      ASK_USER_LOG_LEVEL: "error",
      ...memoryEnv(snapshots),
    },
    { timeoutMs: 60_000 },
  );
  gateway.child.once("exit", (code, signal) => {
    if (signal !== "SIGKILL") console.error(`the gateway child exited (code ${code}, signal ${signal})`);
  });
  gateway.child.stderr?.on("data", (chunk: Buffer) => process.stderr.write(chunk));
  return gateway;
}

/** Pending question ids by runId, read page by page through the HTTP API. */
async function pendingByRun(url: string): Promise<Map<string, string>> {
  const byRun = new Map<string, string>();
  let cursor: string | undefined;
  do {
    const page = await send(
      `${url}/v1/questions?status=pending&limit=500${cursor ? `&cursor=${cursor}` : ""}`,
      "GET",
      undefined,
    );
    const body = JSON.parse(page.text) as {
      questions: Array<{ id: string; runId?: string }>;
      nextCursor?: string;
    };
    for (const q of body.questions) if (q.runId) byRun.set(q.runId, q.id);
    cursor = body.nextCursor;
  } while (cursor);
  return byRun;
}

/** Answers every waiter with 16 clients; `latency` of each is answer sent → result received. */
async function answerAll(
  url: string,
  ids: string[],
  results: Map<string, Promise<number>>,
): Promise<number[]> {
  const latencies: number[] = [];
  await pool(ids.length, ANSWERING_CLIENTS, async (i) => {
    const id = ids[i] as string;
    const sentAt = performance.now();
    const answered = await send(`${url}/v1/questions/${id}/answer`, "POST", {
      answers: { deploy_target: ["Production"] },
    });
    if (answered.status !== 200) throw new Error(`answer ${id}: ${answered.status} ${answered.text}`);
    latencies.push((await (results.get(id) as Promise<number>)) - sentAt);
  });
  return latencies;
}

async function mcpRun(): Promise<{ perSession: Reading; latencies: number[]; pauses: Reading["pauses"] }> {
  const gateway = await startGateway();
  const mcp = `${gateway.url}/mcp`;
  try {
    const before = await measure(gateway, "MCP, idle");
    const waiting = new Set<number>();
    const resultAt = new Map<string, Promise<number>>(); // by runId
    await pool(n, OPENING_CONCURRENCY, async (i) => {
      const init = await send(
        mcp,
        "POST",
        {
          jsonrpc: "2.0",
          id: 0,
          method: "initialize",
          params: {
            protocolVersion: "2025-11-25",
            capabilities: {},
            clientInfo: { name: `agent-${i}`, version: "1" },
          },
        },
        { accept: "application/json, text/event-stream" },
      );
      if (init.status !== 200) throw new Error(`initialize ${i}: ${init.status} ${init.text}`);
      const headers = {
        accept: "application/json, text/event-stream",
        "mcp-session-id": String(init.headers["mcp-session-id"]),
        "mcp-protocol-version": "2025-11-25",
      };
      await send(mcp, "POST", { jsonrpc: "2.0", method: "notifications/initialized" }, headers);
      let resolveAt: (at: number) => void = () => {};
      resultAt.set(
        `agent-${i}`,
        new Promise<number>((resolve) => {
          resolveAt = resolve;
        }),
      );
      const callBody = {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "ask_user",
          arguments: { ...input, runId: `agent-${i}` },
          _meta: { progressToken: i },
        },
      };
      void send(mcp, "POST", callBody, headers, (chunk) => {
        if (chunk.includes('"notifications/progress"')) waiting.add(i);
        if (chunk.includes('"id":1')) resolveAt(performance.now());
      }).catch((error: unknown) => failed("an MCP call", error));
      await waitFor(`agent ${i} to wait`, () => waiting.has(i), 30_000);
    });
    const during = await measure(gateway, "MCP, all waiting");
    const byRun = await pendingByRun(gateway.url);
    const ids: string[] = [];
    const results = new Map<string, Promise<number>>();
    for (const [runId, id] of byRun) {
      ids.push(id);
      results.set(id, resultAt.get(runId) as Promise<number>);
    }
    if (ids.length !== n) throw new Error(`${ids.length} pending questions, expected ${n}`);
    const latencies = await answerAll(gateway.url, ids, results);
    const { pauses } = await measure(gateway, "MCP, all answered");
    return { perSession: per(before, during, n), latencies, pauses };
  } finally {
    await kill9(gateway.child);
  }
}

async function longPollRun(): Promise<{
  perQuestion: Reading;
  perWaiter: Reading;
  latencies: number[];
  pauses: Reading["pauses"];
}> {
  const gateway = await startGateway();
  try {
    const before = await measure(gateway, "long-poll, idle");
    const ids: string[] = [];
    await pool(n, OPENING_CONCURRENCY, async () => {
      const created = await send(`${gateway.url}/v1/questions`, "POST", input);
      ids.push((JSON.parse(created.text) as { id: string }).id);
    });
    const created = await measure(gateway, "long-poll, questions created");
    const results = new Map<string, Promise<number>>();
    // Opened in batches: ten thousand connects at once overflow the listen backlog.
    for (let start = 0; start < ids.length; start += OPENING_CONCURRENCY) {
      for (const id of ids.slice(start, start + OPENING_CONCURRENCY)) {
        const done = send(`${gateway.url}/v1/questions/${id}?wait=300`, "GET", undefined).then(() =>
          performance.now(),
        );
        done.catch((error: unknown) => failed("a long poll", error));
        results.set(id, done);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, 2000)); // every poll reached the gateway
    const during = await measure(gateway, "long-poll, all waiting");
    const latencies = await answerAll(gateway.url, ids, results);
    const { pauses } = await measure(gateway, "long-poll, all answered");
    return { perQuestion: per(before, created, n), perWaiter: per(before, during, n), latencies, pauses };
  } finally {
    await kill9(gateway.child);
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const ms = (value: number) => `${value.toFixed(1)} ms`;
const both = (r: Reading) => `heap ${kb(r.heap).padStart(8)}  RSS ${kb(r.rss).padStart(8)}`;
const mark = (ok: boolean) => (ok ? "ok" : "ABOVE GOAL");
const gcLine = (pauses: Reading["pauses"]) =>
  pauses ? `  gateway GC while answering: longest pause ${ms(pauses.max)}, ${pauses.over20} over 20 ms` : "";
const limit = execFileSync("sh", ["-c", "ulimit -n"], { encoding: "utf8" }).trim();
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");
console.log(
  `MCP waiters: ${n.toLocaleString("en-US")} sessions, each with ask_user in flight and a progressToken (open-file limit ${limit}, load ${load()})`,
);
console.log(
  "  memory: from an idle gateway to all waiting, each waiter's question included (both runs alike);",
);
console.log("  heap = V8 heap in use after a full GC in the gateway, RSS = its resident set after that GC");
try {
  const mcp = await mcpRun();
  const worst = Math.max(mcp.perSession.heap, mcp.perSession.rss);
  console.log(
    `  per waiting MCP session, incl. its question   ${both(mcp.perSession)}   goal ≤ ${kb(GOAL_BYTES)}  ${mark(worst <= GOAL_BYTES)}`,
  );
  const p99 = percentile(mcp.latencies, 99);
  console.log(
    `  answer → tool result, ${ANSWERING_CLIENTS} answering clients  p50 ${ms(percentile(mcp.latencies, 50))}  p99 ${ms(p99)}   goal p99 ≤ ${GOAL_P99_MS} ms  ${mark(p99 <= GOAL_P99_MS)}`,
  );
  console.log(gcLine(mcp.pauses));
  if (baseline) {
    const poll = await longPollRun();
    console.log("HTTP long-poll waiters (baseline, same N, fresh gateway; questions created first)");
    console.log(`  per question alone                            ${both(poll.perQuestion)}`);
    console.log(`  per waiter, incl. its question                ${both(poll.perWaiter)}`);
    console.log(
      `  per waiter, without its question              ${both(per(poll.perQuestion, poll.perWaiter, 1))}`,
    );
    console.log(
      `  per MCP session, without its question         ${both(per(poll.perQuestion, mcp.perSession, 1))}`,
    );
    console.log(
      `  answer → response, ${ANSWERING_CLIENTS} answering clients     p50 ${ms(percentile(poll.latencies, 50))}  p99 ${ms(percentile(poll.latencies, 99))}`,
    );
    console.log(gcLine(poll.pauses));
  }
} finally {
  for (const [kind, count] of failures) console.error(`${count} × ${kind} failed`);
  console.log(
    `  load at the end ${load()} (${cpus().length} CPUs; latency under a loaded machine is mostly queueing)`,
  );
  agent.destroy();
  if (!snapshots) rmSync(work, { recursive: true, force: true });
}
