/**
 * Redis's own limit for the commands a gateway sends per create→answer cycle: the commands of one
 * cycle are captured with MONITOR, then replayed by a raw client (ioredis, no gateway) with fresh ids
 * and the same concurrency, while a subscriber receives the published changes as one gateway would.
 */
import { createRequire } from "node:module";
import { cpuMicros } from "./machine.ts";

/** The few calls of ioredis the benchmark makes (it is @ask-user/redis's dependency, not ours). */
export interface RawRedis {
  call(command: string, ...args: string[]): Promise<unknown>;
  info(section: string): Promise<string>;
  monitor(): Promise<RawRedis>;
  subscribe(channel: string): Promise<unknown>;
  on(event: "monitor", listener: (time: string, args: string[], source: string) => void): unknown;
  on(event: "message", listener: (channel: string, message: string) => void): unknown;
  disconnect(): void;
}
type RawRedisConstructor = new (url: string) => RawRedis;
const ioredis = createRequire(import.meta.resolve("@ask-user/redis"))("ioredis") as {
  Redis?: RawRedisConstructor;
  default?: RawRedisConstructor;
};
/** ioredis itself, as @ask-user/redis loads it. */
export const RawRedis = (ioredis.Redis ?? ioredis.default) as RawRedisConstructor;

/** The process id of the redis-server behind `client`. */
export async function serverPid(client: RawRedis): Promise<number> {
  const pid = Number(/process_id:(\d+)/.exec(await client.info("server"))?.[1]);
  if (!pid) throw new Error("redis-server did not say its process id");
  return pid;
}

/** Every command (not those a Lua script runs) Redis receives while `work` runs, in order. */
export async function captured(url: string, work: () => Promise<void>, settleMs = 300): Promise<string[][]> {
  const connection = new RawRedis(url);
  const monitor = await connection.monitor(); // a connection of its own
  const commands: string[][] = [];
  monitor.on("monitor", (_time, args, source) => {
    if (source !== "lua") commands.push(args);
  });
  try {
    await work();
    await new Promise((resolve) => setTimeout(resolve, settleMs)); // the last replies' follow-ups
  } finally {
    monitor.disconnect();
    connection.disconnect();
  }
  return commands;
}

/** Another id of the same length as `id` for replay `n` (the last characters become `n` in base 36). */
function freshId(id: string, n: number): string {
  const tail = `r${n.toString(36)}`;
  return id.slice(0, Math.max(0, id.length - tail.length)) + tail;
}

export interface Replay {
  perSecond: number;
  /** redis-server's CPU time per replayed cycle, in µs. */
  redisMicros: number;
}

/**
 * Replays `commands` (one cycle of question `id`) `cycles` times with `concurrency` cycles in flight,
 * each with a fresh id in place of `id`, the commands of a cycle one after another (as the gateway awaits
 * each); a subscriber on `channel` receives what the scripts publish.
 */
export async function replay(
  url: string,
  commands: string[][],
  id: string,
  { cycles, concurrency, channel }: { cycles: number; concurrency: number; channel: string },
): Promise<Replay> {
  const client = new RawRedis(url);
  const subscriber = new RawRedis(url);
  let received = 0;
  subscriber.on("message", () => {
    received++;
  });
  await subscriber.subscribe(channel);
  try {
    const pid = await serverPid(client);
    const run = async (n: number) => {
      const fresh = freshId(id, n);
      for (const [name, ...args] of commands) {
        await client.call(name as string, ...args.map((arg) => arg.replaceAll(id, fresh)));
      }
    };
    await Promise.all(Array.from({ length: concurrency }, (_, n) => run(cycles + n))); // scripts loaded
    let next = 0;
    const cpu = cpuMicros(pid);
    const start = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < cycles) await run(next++);
      }),
    );
    const seconds = (performance.now() - start) / 1000;
    if (received === 0 && commands.some(([name]) => /^eval/i.test(name ?? ""))) {
      throw new Error("the replay published nothing: the captured scripts did not run");
    }
    return { perSecond: cycles / seconds, redisMicros: (cpuMicros(pid) - cpu) / cycles };
  } finally {
    client.disconnect();
    subscriber.disconnect();
  }
}
