/**
 * `GET /healthz`: `{ ok, draining }` plus what the embedding host adds (`health`), read on every call;
 * a host that says `ok: false` makes it a 503 for load balancers. While draining, a request to a path
 * the gateway does not have is still a 404, not a "try again" 503.
 */
import { createAskUser, createMemoryStore } from "@ask-user/core";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { createHttpServer, type HttpServer, type HttpServerOptions } from "../src/http/server.ts";
import { deployInput } from "./harness.ts";

const servers: HttpServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

function serve(options: Partial<HttpServerOptions> = {}): HttpServer {
  const http = createHttpServer({
    broker: createAskUser({ store: createMemoryStore(), channels: [] }),
    token: "health-test-token",
    defaultTarget: undefined,
    channels: new Set(),
    logger: pino({ level: "silent" }),
    ...options,
  });
  servers.push(http);
  return http;
}

async function health(http: HttpServer) {
  const response = await http.app.request("http://localhost/healthz");
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("GET /healthz", () => {
  it("answers { ok, draining } and the host's own fields, read on every call, without the token", async () => {
    let store = "up";
    const http = serve({ health: () => ({ store, instance: "a1" }) });
    expect(await health(http)).toEqual({
      status: 200,
      body: { ok: true, draining: false, store: "up", instance: "a1" },
    });
    store = "reconnecting";
    expect((await health(http)).body.store).toBe("reconnecting");
    expect((await health(serve())).body).toEqual({ ok: true, draining: false });
  });

  it("is a 503 when the host says ok: false", async () => {
    const http = serve({ health: () => ({ ok: false, store: "down" }) });
    expect(await health(http)).toEqual({ status: 503, body: { ok: false, draining: false, store: "down" } });
  });

  it("says draining while the server closes; an unknown path is still a 404 then, a new question a 503", async () => {
    const http = serve({ token: undefined });
    const closing = http.close();
    expect(await health(http)).toEqual({ status: 200, body: { ok: true, draining: true } });
    const json = { "content-type": "application/json" };
    const unknown = await http.app.request("http://localhost/v1/nothing", {
      method: "POST",
      headers: json,
      body: "{}",
    });
    expect(unknown.status).toBe(404);
    const create = await http.app.request("http://localhost/v1/questions", {
      method: "POST",
      headers: json,
      body: JSON.stringify(deployInput),
    });
    expect(create.status).toBe(503);
    expect(((await create.json()) as { error: { code: string } }).error.code).toBe("shutting_down");
    await closing;
  });
});
