/**
 * The fast lane in front of the app (`fast-lane.ts`) takes only the agent's create and answer, and only
 * when the app's own checks admit them; whatever it takes is answered byte for byte as the app would
 * answer it (status, JSON body, headers), refusals included.
 */
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
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
  path: string;
  body?: string;
  headers?: Record<string, string | string[]>;
}

/** A raw request (node:http, so the test says exactly which headers go), read whole. */
function send(base: string, { path, body = "", headers = {} }: Sent) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      const req = request(`${base}${path}`, { method: "POST", headers, agent: false }, (res) => {
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
    const answer = { path: `/v1/questions/${id}/draft`, body: "{}", headers: AUTH_JSON };
    const toApp: Sent[] = [
      answer, // another route
      { ...create, path: "/v1/questions/" }, // another path
      { ...create, headers: { "content-type": "application/json" } }, // no token
      { ...create, headers: { ...AUTH_JSON, "transfer-encoding": "chunked" } }, // no Content-Length
    ];
    for (const sent of toApp) expect((await send(base, sent)).status, sent.path).toBe(299);
    draining = true;
    expect((await send(base, create)).status).toBe(299);
    expect(taken).toEqual(["/v1/questions"]);
  });
});
