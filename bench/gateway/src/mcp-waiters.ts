/**
 * N MCP agents waiting at once on one gateway (issue #23): each in its own MCP session over Streamable
 * HTTP with `ask_user` in flight. The gateway runs in a child process (`ask-user start`, memory store)
 * so that its memory is measured alone; this process is the agents. Prints the open-file limit, the
 * gateway's memory per waiting session (RSS delta / N) beside the goal of 32 KB, and answer → tool
 * result latency (p50/p99) with 16 answering clients beside the goal of 50 ms; then the same for N
 * HTTP long-poll waiters (`GET /v1/questions/:id?wait=`) on a fresh gateway as the baseline.
 *
 *   cd bench/gateway && node --conditions=source --import tsx src/mcp-waiters.ts [N] [--no-baseline]
 */
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { Agent, request } from "node:http";
import process from "node:process";
import { type GatewayProcess, kill9, startGatewayProcess } from "@ask-user/gateway/testing";

const RAISED = "ASK_USER_BENCH_NOFILE_RAISED";
/** The gateway child runs the workspace's TypeScript sources, as this script does. */
const SOURCE_NODE_OPTIONS = `--conditions=source --import=${import.meta.resolve("tsx")}`;
const ANSWERING_CLIENTS = 16;
const OPENING_CONCURRENCY = 256;
const GOAL_BYTES = 32 * 1024;
const GOAL_P99_MS = 50;

const args = process.argv.slice(2);
const n = Number(args.find((a) => /^\d+$/.test(a)) ?? 10_000);
const baseline = !args.includes("--no-baseline");

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
const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** One HTTP request; `onData` sees the body as it streams (an SSE response stays open). */
function send(
  url: string,
  method: string,
  body: unknown,
  headers: Record<string, string> = {},
  onData?: (chunk: string) => void,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method, agent, headers: { "content-type": "application/json", ...headers } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
          onData?.(chunk);
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** Runs `work(i)` for i < count with `concurrency` callers. */
async function pool(count: number, concurrency: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(count, concurrency) }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) * 1024;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
}

async function settle(pid: number): Promise<number> {
  // RSS after the dust settles: the lowest of a few readings a moment apart.
  let low = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 5; i++) {
    await new Promise((resolve) => setTimeout(resolve, 400));
    low = Math.min(low, rssOf(pid));
  }
  return low;
}

async function waitFor(what: string, done: () => boolean, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function startGateway(): Promise<GatewayProcess> {
  return startGatewayProcess(
    { ASK_USER_DB: ":memory:", ASK_USER_LOG_LEVEL: "error", NODE_OPTIONS: SOURCE_NODE_OPTIONS },
    { timeoutMs: 60_000 },
  );
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

async function mcpRun(): Promise<{ perSession: number; latencies: number[] }> {
  const gateway = await startGateway();
  const mcp = `${gateway.url}/mcp`;
  const pid = gateway.child.pid as number;
  try {
    const before = await settle(pid);
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
      }).catch((error: unknown) => console.error(`agent ${i}:`, error));
      await waitFor(`agent ${i} to wait`, () => waiting.has(i), 30_000);
    });
    const during = await settle(pid);
    const byRun = await pendingByRun(gateway.url);
    const ids: string[] = [];
    const results = new Map<string, Promise<number>>();
    for (const [runId, id] of byRun) {
      ids.push(id);
      results.set(id, resultAt.get(runId) as Promise<number>);
    }
    if (ids.length !== n) throw new Error(`${ids.length} pending questions, expected ${n}`);
    const latencies = await answerAll(gateway.url, ids, results);
    return { perSession: (during - before) / n, latencies };
  } finally {
    await kill9(gateway.child);
  }
}

async function longPollRun(): Promise<{ perWaiter: number; latencies: number[] }> {
  const gateway = await startGateway();
  const pid = gateway.child.pid as number;
  try {
    const ids: string[] = [];
    await pool(n, OPENING_CONCURRENCY, async () => {
      const created = await send(`${gateway.url}/v1/questions`, "POST", input);
      ids.push((JSON.parse(created.text) as { id: string }).id);
    });
    const before = await settle(pid);
    const results = new Map<string, Promise<number>>();
    // Opened in batches: ten thousand connects at once overflow the listen backlog.
    for (let start = 0; start < ids.length; start += OPENING_CONCURRENCY) {
      for (const id of ids.slice(start, start + OPENING_CONCURRENCY)) {
        const done = send(`${gateway.url}/v1/questions/${id}?wait=300`, "GET", undefined).then(() =>
          performance.now(),
        );
        done.catch((error: unknown) => console.error(`long poll ${id}:`, error));
        results.set(id, done);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, 2000)); // every poll reached the gateway
    const during = await settle(pid);
    const latencies = await answerAll(gateway.url, ids, results);
    return { perWaiter: (during - before) / n, latencies };
  } finally {
    await kill9(gateway.child);
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const ms = (value: number) => `${value.toFixed(1)} ms`;
const limit = execFileSync("sh", ["-c", "ulimit -n"], { encoding: "utf8" }).trim();
console.log(
  `MCP waiters: ${n.toLocaleString("en-US")} sessions, each with ask_user in flight (open-file limit ${limit})`,
);
const mcp = await mcpRun();
const mark = (ok: boolean) => (ok ? "ok" : "ABOVE GOAL");
console.log(
  `  gateway memory per waiting MCP session   ${kb(mcp.perSession).padStart(10)}   goal ≤ ${kb(GOAL_BYTES)}  ${mark(mcp.perSession <= GOAL_BYTES)}`,
);
const p99 = percentile(mcp.latencies, 99);
console.log(
  `  answer → tool result, ${ANSWERING_CLIENTS} answering clients p50 ${ms(percentile(mcp.latencies, 50))}  p99 ${ms(p99)}   goal p99 ≤ ${GOAL_P99_MS} ms  ${mark(p99 <= GOAL_P99_MS)}`,
);
if (baseline) {
  const poll = await longPollRun();
  console.log(`HTTP long-poll waiters (baseline, same N, fresh gateway)`);
  console.log(`  gateway memory per waiter                ${kb(poll.perWaiter).padStart(10)}`);
  console.log(
    `  answer → response, ${ANSWERING_CLIENTS} answering clients    p50 ${ms(percentile(poll.latencies, 50))}  p99 ${ms(percentile(poll.latencies, 99))}`,
  );
}
agent.destroy();
