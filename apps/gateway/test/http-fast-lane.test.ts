/**
 * The fast lane in front of the app (`fast-lane.ts`) takes only the agent's create and answer, and only
 * when the app's own checks admit them; whatever it takes is answered byte for byte as the app would
 * answer it (status, JSON body, headers), refusals included.
 */
import { createServer, request } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { type AskUserBroker, createAskUser, createMemoryStore } from "@ask-user/core";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { gatewayChecks } from "../src/http/app.ts";
import { createFastLane } from "../src/http/fast-lane.ts";
import { hotRoutes } from "../src/http/questions.ts";
import { createHttpServer, type HttpServer, type HttpServerOptions } from "../src/http/server.ts";
import { deployInput } from "./harness.ts";

const TOKEN = "fast-lane-token-0123456789";
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const listen = async (server: import("node:http").Server) => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

/** Two servers on one broker: the gateway's (fast lane on) and the app alone (fast lane off). */
async function pair(options: Partial<HttpServerOptions>) {
  const broker = createAskUser({ store: createMemoryStore(), channels: [] });
  const open = async (fastLane: boolean) => {
    const http: HttpServer = createHttpServer({
      broker,
      token: TOKEN,
      defaultTarget: undefined,
      channels: new Set(),
      logger: pino({ level: "silent" }),
      fastLane,
      ...options,
    });
    closers.push(() => http.close());
    return listen(http.server);
  };
  return { broker, lane: await open(true), app: await open(false) };
}

interface Sent {
  method?: "GET" | "POST";
  path: string;
  body?: string;
  headers?: Record<string, string | string[]>;
}

/** A raw request (node:http, so the test says exactly which headers go), read whole. */
function send(base: string, { method = "POST", path, body = "", headers = {} }: Sent) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      const req = request(`${base}${path}`, { method, headers, agent: false }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () => {
          const { date: _date, ...rest } = res.headers;
          resolve({ status: res.statusCode ?? 0, headers: rest, body: text });
        });
      });
      req.on("error", reject);
      req.end(body);
    },
  );
}

const AUTH_JSON: Record<string, string> = {
  "content-type": "application/json",
  authorization: `Bearer ${TOKEN}`,
};
const bodyOf = (value: unknown) => JSON.stringify(value);

/** The answer without what differs by nature between two questions (ids, times, tokens). */
function comparable(answer: { status: number; headers: Record<string, unknown>; body: string }) {
  const body = answer.body.replace(
    /"(id|createdAt|expiresAt|resolvedAt|tokens)":("[^"]*"|\d+|\[[^\]]*\])/g,
    '"$1":_',
  );
  const { "content-length": _length, ...headers } = answer.headers;
  return { status: answer.status, headers, body };
}

describe("the fast lane", () => {
  it("answers every create and answer, good or refused, exactly as the app does", async () => {
    const { broker, lane, app } = await pair({ allowedHosts: new Set(["127.0.0.1"]) });
    // Each case is sent to both servers; a question each side made itself is answered on that side.
    const created = async (base: string) => {
      const made = await send(base, { path: "/v1/questions", body: bodyOf(deployInput), headers: AUTH_JSON });
      return (JSON.parse(made.body) as { id: string }).id;
    };
    const ended = async (base: string) => {
      const id = await created(base);
      await broker.cancel(id, { channel: "http", userId: "operator" });
      return id;
    };
    const cases: { name: string; make: (base: string) => Promise<Sent> }[] = [
      {
        name: "create",
        make: async () => ({ path: "/v1/questions", body: bodyOf(deployInput), headers: AUTH_JSON }),
      },
      {
        name: "create with an unknown field and bad questions (422 with issues)",
        make: async () => ({
          path: "/v1/questions",
          body: bodyOf({ questions: [], colour: 1 }),
          headers: AUTH_JSON,
        }),
      },
      {
        name: "invalid JSON (400)",
        make: async () => ({ path: "/v1/questions", body: "{nope", headers: AUTH_JSON }),
      },
      {
        name: "an array body (400)",
        make: async () => ({ path: "/v1/questions", body: "[1]", headers: AUTH_JSON }),
      },
      { name: "an empty body (422)", make: async () => ({ path: "/v1/questions", headers: AUTH_JSON }) },
      {
        name: "answer",
        make: async (base) => ({
          path: `/v1/questions/${await created(base)}/answer`,
          body: bodyOf({ answers: { deploy_target: ["Production"] }, surface: "cli", name: "ops" }),
          headers: AUTH_JSON,
        }),
      },
      {
        name: "answer with an unknown option (422)",
        make: async (base) => ({
          path: `/v1/questions/${await created(base)}/answer`,
          body: bodyOf({ answers: { deploy_target: ["Mars"] } }),
          headers: AUTH_JSON,
        }),
      },
      {
        name: "answer without answers (422)",
        make: async (base) => ({
          path: `/v1/questions/${await created(base)}/answer`,
          body: "{}",
          headers: AUTH_JSON,
        }),
      },
      {
        name: "answer to an unknown question (404)",
        make: async () => ({
          path: "/v1/questions/nope/answer",
          body: bodyOf({ answers: {} }),
          headers: AUTH_JSON,
        }),
      },
      {
        name: "answer to an ended question (409)",
        make: async (base) => ({
          path: `/v1/questions/${await ended(base)}/answer`,
          body: bodyOf({ answers: { deploy_target: ["Production"] } }),
          headers: AUTH_JSON,
        }),
      },
      {
        name: "no token (401)",
        make: async () => ({
          path: "/v1/questions",
          body: bodyOf(deployInput),
          headers: { "content-type": "application/json" },
        }),
      },
      {
        name: "a wrong token (401)",
        make: async () => ({
          path: "/v1/questions",
          body: bodyOf(deployInput),
          headers: { ...AUTH_JSON, authorization: "Bearer wrong" },
        }),
      },
      {
        name: "a foreign Host (403)",
        make: async () => ({
          path: "/v1/questions",
          body: bodyOf(deployInput),
          headers: { ...AUTH_JSON, host: "evil.example" },
        }),
      },
      {
        name: "a cross-site browser request (403)",
        make: async () => ({
          path: "/v1/questions",
          body: bodyOf(deployInput),
          headers: { ...AUTH_JSON, "sec-fetch-site": "cross-site" },
        }),
      },
      {
        name: "a form body (415)",
        make: async () => ({
          path: "/v1/questions",
          body: "a=1",
          headers: { ...AUTH_JSON, "content-type": "application/x-www-form-urlencoded" },
        }),
      },
      {
        name: "a body over the limit by its Content-Length (413)",
        make: async () => ({ path: "/v1/questions", body: " ".repeat(2 * 1024 * 1024), headers: AUTH_JSON }),
      },
      {
        name: "two Authorization headers (the app joins them: 401)",
        make: async () => ({
          path: "/v1/questions",
          body: bodyOf(deployInput),
          headers: { ...AUTH_JSON, authorization: [`Bearer ${TOKEN}`, `Bearer ${TOKEN}`] },
        }),
      },
      {
        name: "read a question",
        make: async (base) => ({
          method: "GET",
          path: `/v1/questions/${await created(base)}`,
          headers: AUTH_JSON,
        }),
      },
      {
        name: "read a pending question, waiting 0.05 s",
        make: async (base) => ({
          method: "GET",
          path: `/v1/questions/${await created(base)}?wait=0.05`,
          headers: AUTH_JSON,
        }),
      },
      {
        name: "read an ended question, waiting",
        make: async (base) => ({
          method: "GET",
          path: `/v1/questions/${await ended(base)}?wait=30`,
          headers: AUTH_JSON,
        }),
      },
      {
        name: "read an unknown question (404)",
        make: async () => ({ method: "GET", path: "/v1/questions/nope?wait=1", headers: AUTH_JSON }),
      },
      {
        name: "read with a wait that is not a number (400, the app's)",
        make: async () => ({ method: "GET", path: "/v1/questions/nope?wait=soon", headers: AUTH_JSON }),
      },
      {
        name: "read without the token (401)",
        make: async (base) => ({ method: "GET", path: `/v1/questions/${await created(base)}` }),
      },
      {
        name: "a query string (the app's route)",
        make: async () => ({ path: "/v1/questions?x=1", body: bodyOf(deployInput), headers: AUTH_JSON }),
      },
    ];
    for (const { name, make } of cases) {
      const viaLane = comparable(await send(lane, await make(lane)));
      const viaApp = comparable(await send(app, await make(app)));
      expect(viaLane, name).toEqual(viaApp);
    }
  });

  it("wakes a waiting read with the answer, and ends the wait when the client goes away", async () => {
    const { broker, lane } = await pair({});
    const made = await send(lane, { path: "/v1/questions", body: bodyOf(deployInput), headers: AUTH_JSON });
    const id = (JSON.parse(made.body) as { id: string }).id;
    const waiting = send(lane, { method: "GET", path: `/v1/questions/${id}?wait=30`, headers: AUTH_JSON });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await broker.answer(id, { deploy_target: ["Production"] }, { channel: "http", userId: "operator" });
    const woken = await waiting;
    expect(woken.status).toBe(200);
    expect(JSON.parse(woken.body)).toMatchObject({ id, status: "answered" });

    // A wait reads the question when it starts and once more when it ends: a client that leaves ends
    // it at once (the wait was for 60 s).
    const other = (
      JSON.parse(
        (await send(lane, { path: "/v1/questions", body: bodyOf(deployInput), headers: AUTH_JSON })).body,
      ) as { id: string }
    ).id;
    const reads: string[] = [];
    const get = broker.get.bind(broker);
    broker.get = (questionId) => {
      reads.push(questionId);
      return get(questionId);
    };
    const until = async (count: number) => {
      for (let i = 0; i < 300 && reads.length < count; i++) await new Promise((r) => setTimeout(r, 10));
    };
    const { port } = new URL(lane);
    const socket = connect(Number(port), "127.0.0.1");
    socket.on("error", () => undefined);
    socket.write(
      `GET /v1/questions/${other}?wait=60 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\n\r\n`,
    );
    await until(1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(reads).toEqual([other]); // waiting
    socket.destroy();
    await until(2);
    expect(reads).toEqual([other, other]);
  });

  it("answers with the exact Content-Length", async () => {
    const { lane } = await pair({});
    const made = await send(lane, { path: "/v1/questions", body: bodyOf(deployInput), headers: AUTH_JSON });
    expect(made.status).toBe(201);
    expect(Number(made.headers["content-length"])).toBe(Buffer.byteLength(made.body));
  });

  it("takes only the agent's create and answer that every check admits; the rest goes to the app", async () => {
    const broker: AskUserBroker = createAskUser({ store: createMemoryStore(), channels: [] });
    let draining = false;
    const options = {
      broker,
      token: TOKEN,
      defaultTarget: undefined,
      channels: new Set<string>(),
      logger: pino({ level: "silent" }),
    };
    const fastLane = createFastLane({
      checks: gatewayChecks(options, () => draining),
      routes: hotRoutes(options),
      logger: options.logger,
    });
    const taken: string[] = [];
    const server = createServer((req, res) => {
      if (fastLane(req, res)) {
        taken.push(req.url ?? "");
        return;
      }
      req.resume();
      res.writeHead(299).end("the app");
    });
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    const base = await listen(server);
    const create = { path: "/v1/questions", body: bodyOf(deployInput), headers: AUTH_JSON };
    const made = await send(base, create);
    expect(made.status).toBe(201);
    const id = (JSON.parse(made.body) as { id: string }).id;
    expect(
      (await send(base, { method: "GET", path: `/v1/questions/${id}?wait=0`, headers: AUTH_JSON })).status,
    ).toBe(200);
    const draft = { path: `/v1/questions/${id}/draft`, body: "{}", headers: AUTH_JSON };
    const toApp: Sent[] = [
      draft, // another route
      { method: "GET", path: `/v1/questions/${id}?wait=1&x=2` }, // another query
      { method: "GET", path: `/v1/questions?status=pending`, headers: AUTH_JSON }, // the list
      { ...create, path: "/v1/questions/" }, // another path
      { ...create, headers: { "content-type": "application/json" } }, // no token
      { ...create, headers: { ...AUTH_JSON, "transfer-encoding": "chunked" } }, // no Content-Length
    ];
    for (const sent of toApp) expect((await send(base, sent)).status, sent.path).toBe(299);
    draining = true;
    expect((await send(base, create)).status).toBe(299);
    expect(taken).toEqual(["/v1/questions", `/v1/questions/${id}?wait=0`]);
  });
});
