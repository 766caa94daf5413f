/**
 * N agents long-polling at once (`GET /v1/questions/:id?wait=300` on one gateway, a child process so
 * that its memory is measured alone) beside a bare `node:http` child holding the same N requests: the
 * memory each held request costs (RSS delta / N), then answer sent → waiter woken with 16 answering
 * clients.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Child, spawnNode, startGatewayChild, waitForOutput } from "./children.ts";
import { httpClient } from "./http.ts";
import { cpuMicros, openFileLimit, openFiles, rssBytes, settled } from "./machine.ts";
import { print } from "./report.ts";
import { input } from "./samples.ts";
import { fmt, percentile, rate, row } from "./stats.ts";
import { openWaiters } from "./waiter-clients.ts";

const ANSWERING = 16;
const answers = { deploy_target: ["Production"] };

/** What is measured on either side: the held requests' memory and how fast an answer wakes them. */
interface Held {
  bytesPerWaiter: number;
  rssBeforeBytes: number;
  wakeMs: number[];
  answersPerSecond: number;
  /** The server's CPU time per answer while the answers wake the waiters (every thread), in µs. */
  cpuPerAnswerMicros: number;
  openFileLimit: number;
}

/** A server that holds requests: its process, and how to wait on and answer question `id`. */
interface Target {
  name: string;
  child: Child;
  ids: string[];
  waitUrl(id: string): string;
  answer(id: string): Promise<void>;
}

async function hold(target: Target): Promise<Held> {
  const { pid } = target.child;
  const count = target.ids.length;
  await settled(pid, `${target.name} before the waiters`);
  const rssBefore = rssBytes(pid);
  const filesBefore = openFiles(pid);
  const waiters = await openWaiters(target.ids.map((id) => target.waitUrl(id)));
  // Every connection accepted and every request handled (the server idle again): all are waiting. The
  // answering clients' keep-alive sockets may close meanwhile (the gateway's idle timeout is 5 s).
  await settled(
    pid,
    `${target.name} with ${count} waiters`,
    () => openFiles(pid) >= filesBefore + count - ANSWERING,
  );
  const rssAfter = rssBytes(pid);
  const early = waiters.filter((w) => w.ended()).length;
  if (early > 0) throw new Error(`${target.name}: ${early} waiters ended before their answer`);

  const sentAt: number[] = [];
  const cpuBefore = cpuMicros(pid);
  const answersPerSecond = await rate(count, ANSWERING, async (i) => {
    sentAt[i] = performance.now();
    await target.answer(target.ids[i] as string);
  });
  const wakeMs: number[] = [];
  for (const [i, waiter] of waiters.entries()) {
    const woken = await waiter.done;
    if (woken.status !== 200 || !woken.body.includes('"answered"')) {
      throw new Error(`${target.name}: waiter ${i} got ${woken.status} ${woken.body.slice(0, 200)}`);
    }
    wakeMs.push(woken.at - (sentAt[i] as number));
  }
  return {
    bytesPerWaiter: (rssAfter - rssBefore) / count,
    rssBeforeBytes: rssBefore,
    wakeMs,
    answersPerSecond,
    cpuPerAnswerMicros: (cpuMicros(pid) - cpuBefore) / count, // every waiter has been woken
    openFileLimit: openFileLimit(pid),
  };
}

async function onGateway(dir: string, count: number): Promise<Held> {
  const gateway = await startGatewayChild({ ASK_USER_DB: join(dir, `long-poll-${count}.db`) });
  const client = httpClient(ANSWERING);
  try {
    const ids: string[] = [];
    await rate(count, ANSWERING, async (i) => {
      const created = await client.post(`${gateway.url}/v1/questions`, input);
      if (created.status !== 201 || !created.json?.id) throw new Error(`create failed: ${created.status}`);
      ids[i] = created.json.id;
    });
    return await hold({
      name: "the gateway",
      child: gateway,
      ids,
      waitUrl: (id) => `${gateway.url}/v1/questions/${id}?wait=300`,
      answer: async (id) => {
        const answered = await client.post(`${gateway.url}/v1/questions/${id}/answer`, { answers });
        if (answered.status !== 200) throw new Error(`answer ${id}: ${answered.status}`);
      },
    });
  } finally {
    client.close();
    await gateway.kill();
  }
}

async function onBare(count: number): Promise<Held> {
  const script = fileURLToPath(new URL("bare-waiters.ts", import.meta.url));
  const bare = spawnNode([script]);
  const client = httpClient(ANSWERING);
  try {
    const url = (await waitForOutput(bare, /listening (http:\/\/127\.0\.0\.1:\d+)/, "the bare server"))[1];
    return await hold({
      name: "bare node:http",
      child: bare,
      ids: Array.from({ length: count }, (_, i) => `w${i}`),
      waitUrl: (id) => `${url}/wait/${id}`,
      answer: async (id) => {
        const woken = await client.post(`${url}/wake/${id}`, { answers });
        if (woken.status !== 200) throw new Error(`wake ${id}: ${woken.status}`);
      },
    });
  } finally {
    client.close();
    await bare.kill();
  }
}

/** Prints the long-poll figures for `count` waiters at once. */
export async function longPollFigures(dir: string, count: number): Promise<void> {
  const own = openFileLimit("self");
  if (own < count + 1_000) {
    print(
      `long-poll waiters: skipped — this process may open ${fmt(own)} files, ${fmt(count)} waiters need about ${fmt(count + 1_000)} (raise it with ulimit -n, or ask for fewer waiters)`,
    );
    return;
  }
  const bare = await onBare(count);
  const gateway = await onGateway(dir, count);
  const kb = (bytes: number) => fmt(bytes / 1024, 1);
  const p = (values: number[], at: number) => fmt(percentile(values, at), 1);
  print(
    row(
      `long-poll: gateway memory per waiter (${fmt(count)} at once)`,
      gateway.bytesPerWaiter / 1024,
      "KB",
      `   (bare node:http holding the same requests: ${kb(bare.bytesPerWaiter)} KB; ratio ${(gateway.bytesPerWaiter / bare.bytesPerWaiter).toFixed(1)}; RSS before the waiters ${fmt(gateway.rssBeforeBytes / 2 ** 20)} vs ${fmt(bare.rssBeforeBytes / 2 ** 20)} MiB; open-file limit ${fmt(gateway.openFileLimit)} and ${fmt(bare.openFileLimit)})`,
    ),
  );
  print(
    row(
      `long-poll: answer sent → waiter woken, p99`,
      percentile(gateway.wakeMs, 99),
      "ms",
      `   (p50 ${p(gateway.wakeMs, 50)} ms; goal p99 ≤ 50 ms; bare node:http p50 ${p(bare.wakeMs, 50)}, p99 ${p(bare.wakeMs, 99)} ms; ${ANSWERING} answering clients: ${fmt(gateway.answersPerSecond)} answers/s vs ${fmt(bare.answersPerSecond)}/s, server CPU per answer ${fmt(gateway.cpuPerAnswerMicros)} vs ${fmt(bare.cpuPerAnswerMicros)} µs)`,
      1,
    ),
  );
}
