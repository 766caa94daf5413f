/**
 * Scale-out: the HTTP create→answer cycle on 1, 2 and 3 gateway processes over one redis-server, 16
 * clients spread over the instances (client c creates on instance c mod n and answers on the next one,
 * so that an answer reaches another instance than the create), beside Redis's own limit for the same
 * commands (replayed by a raw client) and the CPU each process spends per cycle.
 */
import os from "node:os";
import { type GatewayProcess, kill9, startGatewayProcess } from "@ask-user/gateway/testing";
import { startRedisServer } from "@ask-user/testkit/redis";
import { SOURCE_NODE_OPTIONS } from "./children.ts";
import { httpClient } from "./http.ts";
import { cpuMicros } from "./machine.ts";
import { captured, RawRedis, replay, serverPid } from "./redis-raw.ts";
import { print } from "./report.ts";
import { answer, input } from "./samples.ts";
import { fmt, row } from "./stats.ts";

const INSTANCES = [1, 2, 3];
const WARM_UP = 1_000;
const CHANNEL = "ask-user:changes";

interface Run {
  instances: number;
  perSecond: number;
  /** CPU per cycle in µs: all gateways, redis-server, and this process (the load generator). */
  gatewayMicros: number;
  redisMicros: number;
  clientMicros: number;
  /** The 1-minute load average at the end of the run (every process on the machine). */
  loadAverage: number;
}

/** One create→answer cycle: created on `from`, answered on `to`; returns the question's id. */
async function cycle(client: ReturnType<typeof httpClient>, from: string, to: string): Promise<string> {
  const created = await client.post(`${from}/v1/questions`, input);
  if (created.status !== 201 || !created.json?.id) throw new Error(`create on ${from}: ${created.status}`);
  const answered = await client.post(`${to}/v1/questions/${created.json.id}/answer`, answer);
  if (answered.status !== 200) throw new Error(`answer on ${to}: ${answered.status}`);
  return created.json.id;
}

/** `cycles` cycles with `clients` clients spread over `urls`. */
async function load(
  client: ReturnType<typeof httpClient>,
  urls: string[],
  clients: number,
  cycles: number,
): Promise<number> {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      const from = urls[c % urls.length] as string;
      const to = urls[(c + 1) % urls.length] as string;
      while (next < cycles) {
        next++;
        await cycle(client, from, to);
      }
    }),
  );
  return cycles / ((performance.now() - start) / 1000);
}

/** Prints the scale-out figures for `cycles` cycles per instance count with `clients` clients. */
export async function scaleFigures(clients: number, cycles: number): Promise<void> {
  const redis = await startRedisServer();
  const admin = new RawRedis(redis.url);
  const client = httpClient(clients);
  const runs: Run[] = [];
  let commands: string[][] = [];
  let capturedId = "";
  let remoteMicros = 0;
  try {
    const redisPid = await serverPid(admin);
    for (const instances of INSTANCES) {
      await admin.call("FLUSHALL");
      const gateways: GatewayProcess[] = [];
      try {
        for (let i = 0; i < instances; i++) {
          gateways.push(
            await startGatewayProcess({
              NODE_OPTIONS: SOURCE_NODE_OPTIONS,
              ASK_USER_REDIS_URL: redis.url,
              ASK_USER_INSTANCE_ID: `bench-${i}`,
            }),
          );
        }
        const urls = gateways.map((g) => g.url);
        const pids = gateways.map((g) => g.child.pid as number);
        await load(client, urls, clients, WARM_UP);
        const gatewayCpu = () => pids.reduce((sum, pid) => sum + cpuMicros(pid), 0);
        const before = { gateways: gatewayCpu(), redis: cpuMicros(redisPid), self: process.cpuUsage() };
        const perSecond = await load(client, urls, clients, cycles);
        const self = process.cpuUsage(before.self);
        runs.push({
          instances,
          perSecond,
          gatewayMicros: (gatewayCpu() - before.gateways) / cycles,
          redisMicros: (cpuMicros(redisPid) - before.redis) / cycles,
          clientMicros: (self.user + self.system) / cycles,
          loadAverage: os.loadavg()[0] ?? 0,
        });
        if (instances > 1) {
          // Every cycle on the first instance only: what the others spend on changes made elsewhere.
          const others = pids.slice(1);
          const othersCpu = () => others.reduce((sum, pid) => sum + cpuMicros(pid), 0);
          const cpu = othersCpu();
          await load(client, urls.slice(0, 1), clients, cycles / 2);
          remoteMicros = (othersCpu() - cpu) / others.length / (cycles / 2);
        }
        if (instances === 1) {
          // One cycle alone, as Redis sees it: the commands a raw client replays below.
          commands = await captured(redis.url, async () => {
            capturedId = await cycle(client, urls[0] as string, urls[0] as string);
          });
        }
      } finally {
        for (const gateway of gateways) await kill9(gateway.child);
      }
    }
    await admin.call("FLUSHALL");
    const own = commands.filter((args) => args.some((arg) => arg.includes(capturedId)));
    const raw = await replay(redis.url, own, capturedId, { cycles, concurrency: clients, channel: CHANNEL });
    report({ runs, commands, own, raw, clients, remoteMicros });
  } finally {
    client.close();
    admin.disconnect();
    await redis.stop();
  }
}

interface Figures {
  runs: Run[];
  /** Every command of the capture window, and those about the cycle's question. */
  commands: string[][];
  own: string[][];
  raw: Awaited<ReturnType<typeof replay>>;
  clients: number;
  /** CPU an instance spends per cycle made on another instance (its change feed), in µs. */
  remoteMicros: number;
}

function report({ runs, commands, own, raw, clients, remoteMicros }: Figures): void {
  const indent = "".padEnd(52);
  const one = runs[0] as Run;
  const last = runs.at(-1) as Run;
  const names = own.map(([name]) => (name ?? "").toUpperCase()).join(", ");
  print(
    row(
      `HTTP create→answer over Redis, ${last.instances} instances : 1`,
      last.perSecond / one.perSecond,
      "×",
      `   (${runs.map((r) => `${r.instances}: ${fmt(r.perSecond)}/s`).join(", ")} with ${clients} clients spread over the instances; Redis's own limit for the same commands, replayed by a raw client with ${clients} in flight: ${fmt(raw.perSecond)} cycles/s, ${(raw.perSecond / last.perSecond).toFixed(1)}× what ${last.instances} instances reach)`,
      2,
    ),
  );
  print(
    `${indent} per cycle Redis receives ${own.length} commands from the gateway (${names}${commands.length > own.length ? `; ${commands.length - own.length} more in the window not about the question` : ""}), costing redis-server ${fmt(raw.redisMicros)} µs of CPU when replayed (at most ${fmt(1e6 / raw.redisMicros)} cycles/s on one core)`,
  );
  const total = (r: Run) => r.gatewayMicros + r.redisMicros + r.clientMicros;
  print(
    `${indent} CPU per cycle (gateways + redis-server + the load generator): ${runs
      .map(
        (r) =>
          `${r.instances}: ${fmt(r.gatewayMicros)} + ${fmt(r.redisMicros)} + ${fmt(r.clientMicros)} = ${fmt(total(r))} µs`,
      )
      .join(
        "; ",
      )}; a cycle made on one instance costs each other instance ${fmt(remoteMicros)} µs (every change reaches every instance's change feed)`,
  );
  const cores = os.cpus().length;
  const busy = (total(last) * last.perSecond) / 1e6;
  const redisShare = (last.perSecond * last.redisMicros) / 1e6;
  const limit =
    redisShare >= 0.8
      ? "Redis (its one core is busy)"
      : busy >= 0.8 * cores
        ? `the cores: these processes alone keep ${busy.toFixed(2)} of ${cores} busy`
        : last.loadAverage >= cores
          ? `the cores, shared with other work on this machine (load average ${last.loadAverage.toFixed(2)} on ${cores} cores while these processes used ${busy.toFixed(2)})`
          : `waiting, not CPU: ${clients} clients each wait for two requests in turn, ${busy.toFixed(2)} of ${cores} cores busy`;
  print(
    `${indent} what limits it at ${last.instances} instances: ${limit}; Redis is ${(redisShare * 100).toFixed(0)}% busy. More instances on the same cores add CPU per cycle (${fmt(total(one))} → ${fmt(total(last))} µs) without adding cores, so the ratio measures that overhead here, not the gain of instances on machines of their own`,
  );
}
