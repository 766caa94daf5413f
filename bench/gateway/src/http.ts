/**
 * HTTP create→answer round trips through the gateway (durable SQLite) against a bare `node:http`
 * server doing the same two round trips per cycle, both with the same number of concurrent clients.
 */
import { Agent, createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { join } from "node:path";
import { createMemoryStore } from "@ask-user/core";
import { startGateway } from "@ask-user/gateway";
import { createAdaptorServer } from "@hono/node-server";
import { Hono } from "hono";
import { pino } from "pino";
import { bareHandler } from "./bare.ts";
import { outsideFigure } from "./http-outside.ts";
import { cpuMicros } from "./machine.ts";
import { print } from "./report.ts";
import { answer, input } from "./samples.ts";
import { fmt, rate, row } from "./stats.ts";

/** A keep-alive client with one socket per concurrent caller. */
export function httpClient(sockets: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: sockets });
  function post(url: string, body: unknown): Promise<{ status: number; json: { id?: string } | undefined }> {
    return new Promise((resolve, reject) => {
      const data = JSON.stringify(body);
      const req = request(
        url,
        {
          method: "POST",
          agent,
          headers: { "content-type": "application/json", "content-length": Buffer.byteLength(data) },
        },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk) => {
            text += chunk;
          });
          res.on("end", () =>
            resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : undefined }),
          );
        },
      );
      req.on("error", reject);
      req.end(data);
    });
  }
  return { post, close: () => agent.destroy() };
}

/** Closes `server` and its keep-alive connections (the client's pool keeps them open otherwise). */
function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** The bare server, in this process. */
async function startBare() {
  const server = createServer(bareHandler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => closeServer(server),
  };
}

/**
 * Throughput and CPU time per cycle: this process's every thread (client, server, writer), and its
 * main thread alone (the client and the server's event loop, which the ratio mostly depends on).
 */
export interface Measured {
  perSecond: number;
  cpuMicros: number;
  mainMicros: number;
  /** Event-loop utilisation of this process over the run: the share of time the loop was not waiting. */
  loopBusy: number;
}

/** Measures `cycles` of `cycle` with `clients` concurrent callers, warming it up first when `warm`. */
async function measured(
  cycles: number,
  clients: number,
  cycle: () => Promise<void>,
  warm = true,
): Promise<Measured> {
  if (warm) await rate(Math.min(2_000, cycles), clients, cycle); // the gateway's code runs cold at first
  const cpu = process.cpuUsage();
  const main = cpuMicros(process.pid, process.pid);
  const loop = performance.eventLoopUtilization();
  const perSecond = await rate(cycles, clients, cycle);
  const loopBusy = performance.eventLoopUtilization(loop).utilization;
  const used = process.cpuUsage(cpu);
  const mainUsed = cpuMicros(process.pid, process.pid) - main;
  return {
    perSecond,
    cpuMicros: (used.user + used.system) / cycles,
    mainMicros: mainUsed / cycles,
    loopBusy,
  };
}

/** Rounds of every variant, in turns; the median round of each is printed. */
const ROUNDS = 3;

/** The framework floor: Hono on @hono/node-server (the gateway's stack), two routes, no middleware. */
async function startHono() {
  const app = new Hono();
  app.post("/v1/questions", async (c) =>
    c.json({ id: "x", echo: JSON.stringify(await c.req.json()).length }, 201),
  );
  app.post("/v1/questions/:id/answer", async (c) =>
    c.json({ id: c.req.param("id"), answers: await c.req.json() }),
  );
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => closeServer(server),
  };
}

export interface HttpFigure {
  clients: number;
  bare: Measured;
  /** Hono on @hono/node-server answering the same requests without doing anything. */
  hono: Measured;
  /** The gateway on core's memory store: the HTTP layer and the broker, no SQLite at all. */
  memoryStore: Measured;
  /** The gateway on a private in-memory SQLite database: everything but the durable writes. */
  inMemory: Measured;
  durable: Measured;
  /** The same on a SQLite file without the fast lane: the create and answer through the Hono app. */
  durableThroughApp: Measured;
}

/**
 * Measures `cycles` create→answer cycles with `clients` concurrent clients: the bare server, Hono doing
 * nothing, the gateway on core's memory store (no SQLite), on a SQLite `:memory:` database (no
 * durability), and on a SQLite file with and without the fast lane. The variants take turns for
 * {@link ROUNDS} rounds, each started afresh (and warmed up) for its turn and closed after it, so none
 * runs beside another's servers or records; each figure is the median of its rounds, so a busy moment
 * of a shared machine slows one round of each rather than one variant alone.
 */
export async function httpFigure(dir: string, clients: number, cycles: number): Promise<HttpFigure> {
  const client = httpClient(clients);
  const cycleOn =
    (url: string, check = false) =>
    async () => {
      const created = await client.post(`${url}/v1/questions`, input);
      const answered = await client.post(`${url}/v1/questions/${created.json?.id}/answer`, answer);
      if (check && answered.status !== 200) throw new Error(`answer failed: ${answered.status}`);
    };
  /** Starts a variant; returns its URL and how to close it. */
  type Start = (round: number) => Promise<{ url: string; close(): Promise<void> | void }>;
  const onGateway =
    (db: (round: number) => string, options: { memory?: boolean; fastLane?: boolean } = {}): Start =>
    async (round) => {
      const store = options.memory ? createMemoryStore() : undefined;
      const gateway = await startGateway({
        env: { ASK_USER_PORT: "0", ASK_USER_DB: db(round) },
        logger: pino({ level: "silent" }),
        fastLane: options.fastLane ?? true,
        ...(store ? { store } : {}),
      });
      return {
        url: gateway.url,
        close: async () => {
          await gateway.close();
          await store?.close();
        },
      };
    };
  const variants: Record<keyof Omit<HttpFigure, "clients">, Start> = {
    bare: startBare,
    hono: startHono,
    memoryStore: onGateway(() => ":memory:", { memory: true }),
    inMemory: onGateway(() => ":memory:"),
    durable: onGateway((round) => join(dir, `http-${clients}-${round}.db`)),
    durableThroughApp: onGateway((round) => join(dir, `http-${clients}-app-${round}.db`), {
      fastLane: false,
    }),
  };
  const rounds = new Map<string, Measured[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, start] of Object.entries(variants)) {
      const server = await start(round);
      const figure = await measured(cycles, clients, cycleOn(server.url, name !== "bare" && name !== "hono"));
      await server.close();
      rounds.set(name, [...(rounds.get(name) ?? []), figure]);
    }
  }
  client.close();
  const median = (name: string) => {
    const figures = [...(rounds.get(name) ?? [])].sort((a, b) => a.perSecond - b.perSecond);
    return figures[Math.floor(figures.length / 2)] as Measured;
  };
  return {
    clients,
    bare: median("bare"),
    hono: median("hono"),
    memoryStore: median("memoryStore"),
    inMemory: median("inMemory"),
    durable: median("durable"),
    durableThroughApp: median("durableThroughApp"),
  };
}

/** Prints the HTTP figure: the gateway on a SQLite file as a ratio of bare node:http, and the steps between. */
export async function httpSection(dir: string, clients: number, cycles: number): Promise<void> {
  const indent = "".padEnd(52);
  const { bare, hono, memoryStore, inMemory, durable, durableThroughApp } = await httpFigure(
    dir,
    clients,
    cycles,
  );
  const ratio = durable.perSecond / bare.perSecond; // medians of rounds in turns (see httpFigure)
  print(
    row(
      `HTTP create→answer cycles (SQLite, ${clients} clients)`,
      durable.perSecond,
      "cycles/s",
      `   (bare node:http: ${fmt(bare.perSecond)}/s; ratio ${ratio.toFixed(3)}×; goal ≥ 0.5×; medians of ${ROUNDS} rounds, every variant in turns)`,
    ),
  );
  const cpu = (m: Measured) => `${fmt(m.cpuMicros)} µs`;
  const of = (m: Measured) =>
    `${cpu(m)}, main thread ${fmt(m.mainMicros)} µs (${fmt(m.perSecond)}/s, ${(m.perSecond / bare.perSecond).toFixed(2)}×)`;
  print(
    `${indent} CPU per cycle (client included; every thread, and the main thread alone) and throughput: bare node:http ${of(bare)}, Hono on @hono/node-server doing nothing ${of(hono)}, the gateway on core's memory store ${of(memoryStore)}, on SQLite :memory: ${of(inMemory)}, on a SQLite file ${cpu(durable)}, main thread ${fmt(durable.mainMicros)} µs`,
  );
  print(
    `${indent} the fast lane (create and answer served without Hono, its adapter and a web Response; the same checks, route functions and errors): on a SQLite file ${fmt(durable.perSecond)}/s with it, ${fmt(durableThroughApp.perSecond)}/s through the app (${(durable.perSecond / durableThroughApp.perSecond).toFixed(2)}×), main thread ${fmt(durable.mainMicros)} vs ${fmt(durableThroughApp.mainMicros)} µs a cycle`,
  );
  const busy = (m: Measured) => m.loopBusy.toFixed(2);
  print(
    `${indent} event loop busy (the rest it waits): bare ${busy(bare)}, Hono ${busy(hono)}, memory store ${busy(memoryStore)}, SQLite :memory: ${busy(inMemory)}, SQLite file ${busy(durable)}`,
  );
  if (ratio < 0.5) {
    const needed = 1e6 / (0.5 * bare.perSecond);
    print(
      `${indent} why below 0.5: 0.5× is a cycle every ${fmt(needed)} µs of the event loop's time; on a SQLite file the gateway's main thread spends ${fmt(durable.mainMicros)} µs a cycle (bare: ${fmt(bare.mainMicros)}, the same client included), and its event loop waits ${Math.round((1 - durable.loopBusy) * 100)} % of the time for the writer thread's commits (each request waits for its group's fsync; the memory store, with none, keeps it busy ${busy(memoryStore)}). The rest of the main thread's time: socket writes, the HTTP parser, zod's input check, the broker, the hand-off to the writer and GC, each a few µs to some tens (the profile section says where)`,
    );
  }

  const outside = httpClient(clients);
  try {
    const { bare: bareOut, gateway } = await outsideFigure(dir, outside, clients, cycles, ROUNDS);
    print(
      row(
        `HTTP create→answer from outside (${clients} clients)`,
        gateway.perSecond,
        "cycles/s",
        `   (bare node:http: ${fmt(bareOut.perSecond)}/s; ratio ${(gateway.perSecond / bareOut.perSecond).toFixed(3)}×; goal ≥ 0.5×; the server in a process of its own — ask-user start on a SQLite file — and the clients in this one, as an agent's machine sees it; medians of ${ROUNDS} rounds in turns)`,
      ),
    );
    const mainBusy = (gateway.serverMainMicros * gateway.perSecond) / 1e6;
    const side = (m: typeof gateway) =>
      `server ${fmt(m.serverMicros)} µs (main thread ${fmt(m.serverMainMicros)}), clients ${fmt(m.clientMicros)} µs, the machine's cores busy ${m.cores.toFixed(2)}`;
    // The machine's ceiling at this CPU per cycle: every core busy all the time, server and clients.
    const cores = os.cpus().length;
    const ceiling = (cores * 1e6) / (gateway.serverMicros + gateway.clientMicros);
    print(
      `${indent} CPU per cycle from outside: the gateway ${side(gateway)}; bare node:http ${side(bareOut)}. The gateway's main thread is busy ${mainBusy.toFixed(2)} of the time${mainBusy < 0.8 ? ": each client's next request waits for its last one's durable commit, so the cycle is bound by how the main thread and the writer thread overlap (the latency of each commit), not by a core" : ": its CPU is the limit"}. At this CPU per cycle (server and clients), this machine's ${cores} cores kept busy all the time would allow ${fmt(ceiling)} cycles/s, a ratio of ${(ceiling / bareOut.perSecond).toFixed(2)}× at most`,
    );
  } finally {
    outside.close();
  }
}
