/**
 * Where the gateway's own time goes, per route: a gateway on a SQLite file in a child process
 * (`profile-gateway.ts`), warmed up with create→answer cycles, then profiled with node:inspector while
 * 16 clients run whole cycles, again while they only create, while they only answer what was created,
 * and while each answer wakes a long-poll waiter. Each one's CPU time per request or cycle (every thread
 * of the child) and its main thread's self time by package, file and function.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Child, spawnNode } from "./children.ts";
import { type ProfileSummary, shares } from "./cpu-profile.ts";
import { httpClient } from "./http.ts";
import { cpuMicros, openFiles, settled } from "./machine.ts";
import { print } from "./report.ts";
import { answer, input } from "./samples.ts";
import { fmt, rate } from "./stats.ts";
import { openWaiters } from "./waiter-clients.ts";

const WARM_UP = 2_000;
/** How many functions each profile lists (`PROFILE_TOP=40` for more). */
const TOP_FUNCTIONS = Number(process.env.PROFILE_TOP) > 0 ? Number(process.env.PROFILE_TOP) : 10;
/** Long-poll waiters for the third profile: answers that each wake one of them. */
const WAITERS = 2_000;

/** The next IPC message of `child` that `accept` takes; rejects after `timeoutMs` or if it exits. */
function nextMessage<T>(
  child: Child,
  what: string,
  accept: (message: unknown) => T | undefined,
  timeoutMs = 120_000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: unknown) => {
      const value = accept(message);
      if (value === undefined) return;
      done();
      resolve(value);
    };
    const onExit = (code: number | null) => {
      done();
      reject(new Error(`the profiled gateway exited (${code}):\n${child.output()}`));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`the profiled gateway: no ${what} within ${timeoutMs} ms:\n${child.output()}`));
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      child.child.off("message", onMessage);
      child.child.off("exit", onExit);
    };
    child.child.on("message", onMessage);
    child.child.once("exit", onExit);
  });
}

interface RouteProfile {
  summary: ProfileSummary;
  /** CPU time of the gateway process over the route's requests: every thread, and its main thread. */
  cpuMicros: number;
  mainMicros: number;
  perSecond: number;
  requests: number;
}

/** Prints the per-route profile of `count` requests per route with `clients` concurrent clients. */
export async function profileFigures(dir: string, clients: number, count: number): Promise<void> {
  const script = fileURLToPath(new URL("profile-gateway.ts", import.meta.url));
  const gateway = spawnNode([script, join(dir, "profile.db")], { ipc: true });
  const client = httpClient(clients);
  try {
    const url = await nextMessage(gateway, "URL", (m) => (m as { url?: string }).url);
    const create = async () => {
      const created = await client.post(`${url}/v1/questions`, input);
      if (created.status !== 201 || !created.json?.id) throw new Error(`create failed: ${created.status}`);
      return created.json.id;
    };
    const answerOf = async (id: string) => {
      const answered = await client.post(`${url}/v1/questions/${id}/answer`, answer);
      if (answered.status !== 200) throw new Error(`answer failed: ${answered.status}`);
    };
    await rate(WARM_UP, clients, async () => answerOf(await create()));

    const profiled = async (requests: number, work: (i: number) => Promise<void>): Promise<RouteProfile> => {
      gateway.child.send("start");
      await nextMessage(gateway, "start of the profile", (m) => (m === "started" ? true : undefined));
      const [cpu, main] = [cpuMicros(gateway.pid), cpuMicros(gateway.pid, gateway.pid)];
      const perSecond = await rate(requests, clients, work);
      const used = {
        cpuMicros: cpuMicros(gateway.pid) - cpu,
        mainMicros: cpuMicros(gateway.pid, gateway.pid) - main,
      };
      gateway.child.send("stop");
      const { summary } = await nextMessage(gateway, "profile", (m) =>
        typeof m === "object" && m !== null && "summary" in m
          ? (m as { summary: ProfileSummary })
          : undefined,
      );
      return { summary, ...used, perSecond, requests };
    };
    const cycles = await profiled(count, async () => answerOf(await create()));
    const ids: string[] = [];
    const creates = await profiled(count, async (i) => {
      ids[i] = await create();
    });
    const answers = await profiled(count, async (i) => answerOf(ids[i] as string));

    // The same answers while long-poll waiters wait on the questions: what waking them costs.
    const waiting: string[] = [];
    await rate(WAITERS, clients, async (i) => {
      waiting[i] = await create();
    });
    await settled(gateway.pid, "the profiled gateway before the waiters");
    const files = openFiles(gateway.pid);
    const waiters = await openWaiters(waiting.map((id) => `${url}/v1/questions/${id}?wait=300`));
    await settled(
      gateway.pid,
      `the profiled gateway with ${WAITERS} waiters`,
      () => openFiles(gateway.pid) >= files + WAITERS - clients,
    );
    const wakes = await profiled(WAITERS, async (i) => answerOf(waiting[i] as string));
    for (const waiter of waiters) {
      const woken = await waiter.done;
      if (!woken.body.includes('"answered"')) throw new Error(`a waiter got ${woken.status} ${woken.body}`);
    }
    gateway.child.send("close");

    print(
      `where the gateway's time goes: a child gateway on a SQLite file, ${fmt(count)} requests per route from ${clients} clients after ${fmt(WARM_UP)} cycles of warm-up; node:inspector samples its main thread`,
    );
    for (const [route, figure] of [
      ["a create→answer cycle (POST /v1/questions, then its POST …/answer; figures per cycle)", cycles],
      ["POST /v1/questions (create)", creates],
      ["POST /v1/questions/:id/answer", answers],
      [
        `POST /v1/questions/:id/answer, each waking a GET ?wait= (${fmt(WAITERS)} waiting at the start)`,
        wakes,
      ],
    ] as const) {
      const { summary } = figure;
      const busy = summary.busyMicros;
      const perRequest = (micros: number) => `${fmt(micros / figure.requests)} µs`;
      print(
        `  ${route}: ${perRequest(figure.cpuMicros)} CPU per ${figure === cycles ? "cycle" : "request"} in the gateway process, of which the main thread ${perRequest(figure.mainMicros)} and the other threads (the SQLite writer, GC helpers, libuv) ${perRequest(figure.cpuMicros - figure.mainMicros)}; ${fmt(figure.perSecond)} ${figure === cycles ? "cycles" : "requests"}/s. The main thread's samples (${fmt(busy / 1000)} ms busy):`,
      );
      print(`    main thread by package: ${shares(summary.byPackage, busy, 8)}`);
      print(`    by file: ${shares(summary.byFile, busy, 8)}`);
      print(`    top functions (self time): ${shares(summary.byFunction, busy, TOP_FUNCTIONS)}`);
    }
  } finally {
    client.close();
    await gateway.kill();
  }
}
