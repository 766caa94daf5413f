/**
 * The HTTP create→answer cycle measured from outside, as an agent's machine sees it: the server in a
 * process of its own (`ask-user start` on a SQLite file, or bare `node:http`), the same keep-alive
 * clients in the bench's process. In process (`http.ts`) the client and the server share one event
 * loop; here each has its own, so the figure shows the server's own limits: its main thread, its writer
 * thread and how the two overlap while each request waits for its commit.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Child, startGatewayChild, startServerChild } from "./children.ts";
import type { httpClient } from "./http.ts";
import { coresBusy, cpuMicros, cpuTimes } from "./machine.ts";
import { answer, input } from "./samples.ts";
import { rate } from "./stats.ts";

/** One server's figures from outside, per create→answer cycle. */
export interface OutsideMeasured {
  perSecond: number;
  /** CPU time of the server process (every thread) and of its main thread, per cycle. */
  serverMicros: number;
  serverMainMicros: number;
  /** CPU time of the bench's own process (the clients), per cycle. */
  clientMicros: number;
  /** The machine's cores busy on average over the run (every process). */
  cores: number;
}

type Server = Child & { url: string };

const startBareChild = (): Promise<Server> =>
  startServerChild([fileURLToPath(new URL("bare-server.ts", import.meta.url))], "bare node:http");

/**
 * Measures `cycles` cycles against bare node:http and against `ask-user start` on a SQLite file, each in
 * a child process started afresh for its turn (and warmed up), for `rounds` rounds in turns; returns the
 * median round of each.
 */
export async function outsideFigure(
  dir: string,
  client: ReturnType<typeof httpClient>,
  clients: number,
  cycles: number,
  rounds: number,
): Promise<{ bare: OutsideMeasured; gateway: OutsideMeasured }> {
  const results: Record<"bare" | "gateway", OutsideMeasured[]> = { bare: [], gateway: [] };
  for (let round = 0; round < rounds; round++) {
    for (const name of ["bare", "gateway"] as const) {
      const server =
        name === "bare"
          ? await startBareChild()
          : await startGatewayChild({ ASK_USER_DB: join(dir, `outside-${clients}-${round}.db`) });
      try {
        const cycle = async () => {
          const created = await client.post(`${server.url}/v1/questions`, input);
          const answered = await client.post(`${server.url}/v1/questions/${created.json?.id}/answer`, answer);
          if (answered.status !== 200) throw new Error(`answer failed: ${answered.status}`);
        };
        await rate(Math.min(2_000, cycles), clients, cycle); // warm up
        const [all, main, own, machine] = [
          cpuMicros(server.pid),
          cpuMicros(server.pid, server.pid),
          process.cpuUsage(),
          cpuTimes(),
        ];
        const perSecond = await rate(cycles, clients, cycle);
        const used = process.cpuUsage(own);
        results[name].push({
          perSecond,
          serverMicros: (cpuMicros(server.pid) - all) / cycles,
          serverMainMicros: (cpuMicros(server.pid, server.pid) - main) / cycles,
          clientMicros: (used.user + used.system) / cycles,
          cores: coresBusy(machine),
        });
      } finally {
        await server.kill();
      }
    }
  }
  const median = (figures: OutsideMeasured[]) =>
    [...figures].sort((a, b) => a.perSecond - b.perSecond)[Math.floor(figures.length / 2)] as OutsideMeasured;
  return { bare: median(results.bare), gateway: median(results.gateway) };
}
