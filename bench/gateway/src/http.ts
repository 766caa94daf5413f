/**
 * HTTP create→answer round trips through the gateway (durable SQLite) against a bare `node:http`
 * server doing the same two round trips per cycle, both with the same number of concurrent clients.
 */
import { Agent, createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { createMemoryStore, type QuestionStore } from "@ask-user/core";
import { startGateway } from "@ask-user/gateway";
import { createAdaptorServer } from "@hono/node-server";
import { Hono } from "hono";
import { pino } from "pino";
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

/** The bare server: reads the body, answers a small JSON object. */
async function startBare() {
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      const text = JSON.stringify({ id: "x", echo: body.length });
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

/**
 * Throughput and CPU time per cycle: this process's every thread (client, server, writer), and its
 * main thread alone (the client and the server's event loop, which the ratio mostly depends on).
 */
export interface Measured {
  perSecond: number;
  cpuMicros: number;
  mainMicros: number;
}

/** Warms `cycle` up, then measures `cycles` of it with `clients` concurrent callers. */
async function measured(cycles: number, clients: number, cycle: () => Promise<void>): Promise<Measured> {
  await rate(Math.min(2_000, cycles), clients, cycle); // the gateway's code runs cold at first
  const cpu = process.cpuUsage();
  const main = cpuMicros(process.pid, process.pid);
  const perSecond = await rate(cycles, clients, cycle);
  const used = process.cpuUsage(cpu);
  const mainUsed = cpuMicros(process.pid, process.pid) - main;
  return { perSecond, cpuMicros: (used.user + used.system) / cycles, mainMicros: mainUsed / cycles };
}

/** The framework floor: Hono on @hono/node-server (the gateway's stack), two routes, no middleware. */
async function startHono() {
  const app = new Hono();
  app.post("/v1/questions", async (c) =>
    c.json({ id: "x", echo: JSON.stringify(await c.req.json()).length }, 201),
  );
  app.post("/v1/questions/:id/answer", async (c) =>
    c.json({ id: c.req.param("id"), answers: await c.req.json() }),
  );
  const server = createAdaptorServer({ fetch: app.fetch });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
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
}

/**
 * Measures `cycles` create→answer cycles with `clients` concurrent clients: the bare server, Hono doing
 * nothing, the gateway on core's memory store (no SQLite), on a SQLite `:memory:` database (no
 * durability), and on a SQLite file.
 */
export async function httpFigure(dir: string, clients: number, cycles: number): Promise<HttpFigure> {
  const client = httpClient(clients);
  const bare = await startBare();
  const bareFigure = await measured(cycles, clients, async () => {
    await client.post(`${bare.url}/v1/questions`, input);
    await client.post(`${bare.url}/v1/questions/x/answer`, answer);
  });
  bare.close();
  const hono = await startHono();
  const honoFigure = await measured(cycles, clients, async () => {
    await client.post(`${hono.url}/v1/questions`, input);
    await client.post(`${hono.url}/v1/questions/x/answer`, answer);
  });
  hono.close();

  const onGateway = async (db: string, store?: QuestionStore) => {
    const gateway = await startGateway({
      env: { ASK_USER_PORT: "0", ASK_USER_DB: db },
      logger: pino({ level: "silent" }),
      ...(store ? { store } : {}),
    });
    const figure = await measured(cycles, clients, async () => {
      const created = await client.post(`${gateway.url}/v1/questions`, input);
      const answered = await client.post(`${gateway.url}/v1/questions/${created.json?.id}/answer`, answer);
      if (answered.status !== 200) throw new Error(`answer failed: ${answered.status}`);
    });
    await gateway.close();
    await store?.close();
    return figure;
  };
  const memoryStore = await onGateway(":memory:", createMemoryStore());
  const inMemory = await onGateway(":memory:");
  const durable = await onGateway(join(dir, `http-${clients}.db`));
  client.close();
  return { clients, bare: bareFigure, hono: honoFigure, memoryStore, inMemory, durable };
}

/** Prints the HTTP figure: the gateway on a SQLite file as a ratio of bare node:http, and the steps between. */
export async function httpSection(dir: string, clients: number, cycles: number): Promise<void> {
  const indent = "".padEnd(52);
  const { bare, hono, memoryStore, inMemory, durable } = await httpFigure(dir, clients, cycles);
  const ratio = durable.perSecond / bare.perSecond;
  print(
    row(
      `HTTP create→answer cycles (SQLite, ${clients} clients)`,
      durable.perSecond,
      "cycles/s",
      `   (bare node:http: ${fmt(bare.perSecond)}/s; ratio ${ratio.toFixed(3)}×; goal ≥ 0.5×)`,
    ),
  );
  const cpu = (m: Measured) => `${fmt(m.cpuMicros)} µs`;
  const of = (m: Measured) =>
    `${cpu(m)}, main thread ${fmt(m.mainMicros)} µs (${fmt(m.perSecond)}/s, ${(m.perSecond / bare.perSecond).toFixed(2)}×)`;
  print(
    `${indent} CPU per cycle (client included; every thread, and the main thread alone) and throughput: bare node:http ${of(bare)}, Hono on @hono/node-server doing nothing ${of(hono)}, the gateway on core's memory store ${of(memoryStore)}, on SQLite :memory: ${of(inMemory)}, on a SQLite file ${cpu(durable)}, main thread ${fmt(durable.mainMicros)} µs`,
  );
  if (ratio < 0.5) {
    print(
      `${indent} why below 0.5: the HTTP layer and broker alone (core's memory store) reach ${(memoryStore.perSecond / bare.perSecond).toFixed(2)}× bare at ${cpu(memoryStore)} a cycle against ${cpu(hono)} for the framework doing nothing; on a SQLite file each cycle also waits for two group commits in turn (create, then answer), each an fsync shared by at most ${clients} requests in flight, and the writer thread's CPU (${cpu(durable)} a cycle in all) competes with the event loop for the cores (the profile section says where the gateway's own time goes)`,
    );
  }
}
