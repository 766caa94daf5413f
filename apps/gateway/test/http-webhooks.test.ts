import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { createAskUser, createMemoryStore } from "@ask-user/core";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import type { ApiErrorBody as ErrorBody } from "../src/api.ts";
import { createHttpServer, type HttpServer, type WebhookHandler } from "../src/http/server.ts";

const TOKEN = "webhook-test-token-0123456789";
const servers: HttpServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

interface Seen {
  method: string;
  path: string;
  query: string;
  type: string | null;
  secret: string | null;
  body: string;
}

/** A gateway HTTP server with one webhook, `fake`, that records what it got and answers like a platform SDK. */
async function serve(options: { token?: string; allowedHosts?: ReadonlySet<string> } = {}) {
  const seen: Seen[] = [];
  const fake: WebhookHandler = async (req) => {
    const url = new URL(req.url);
    seen.push({
      method: req.method,
      path: url.pathname,
      query: url.search,
      type: req.headers.get("content-type"),
      secret: req.headers.get("x-telegram-bot-api-secret-token"),
      body: await req.text(),
    });
    if (req.headers.get("x-telegram-bot-api-secret-token") !== "s3cret") {
      return new Response("wrong secret", { status: 401 });
    }
    return new Response(JSON.stringify({ ok: true }), { status: 200, headers: { "x-handled-by": "fake" } });
  };
  const http = createHttpServer({
    broker: createAskUser({ store: createMemoryStore(), channels: [] }),
    token: options.token,
    defaultTarget: undefined,
    channels: new Set(),
    logger: pino({ level: "silent" }),
    webhooks: new Map([["fake", fake]]),
    ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
  });
  servers.push(http);
  await new Promise<void>((resolve) => http.server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`, seen };
}

/** A POST with a chosen Host header (fetch can't set it). */
function postWithHost(url: string, host: string, body: string, headers: Record<string, string>) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(url, { method: "POST", headers: { host, ...headers } }, (res) => {
      let text = "";
      res.on("data", (chunk) => {
        text += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const form = {
  "content-type": "application/x-www-form-urlencoded",
  "x-telegram-bot-api-secret-token": "s3cret",
};

describe("the platforms' webhook mount at /channels/<name>/…", () => {
  it("hands the request to the channel's handler as sent (any body type, no bearer token) and sends its response back", async () => {
    const gw = await serve({ token: TOKEN });
    const response = await fetch(`${gw.url}/channels/fake/interactivity?retry=1`, {
      method: "POST",
      headers: form,
      body: "payload=%7B%22type%22%3A%22block_actions%22%7D",
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-handled-by")).toBe("fake");
    expect(await response.json()).toEqual({ ok: true });
    expect(gw.seen).toEqual([
      {
        method: "POST",
        path: "/channels/fake/interactivity",
        query: "?retry=1",
        type: "application/x-www-form-urlencoded",
        secret: "s3cret",
        body: "payload=%7B%22type%22%3A%22block_actions%22%7D",
      },
    ]);
    // The handler, not the gateway, decides about its platform's credentials.
    const wrong = await fetch(`${gw.url}/channels/fake`, {
      method: "POST",
      headers: { ...form, "x-telegram-bot-api-secret-token": "x" },
      body: "{}",
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toBe("wrong secret");
    // The rest of the gateway still needs the token.
    expect((await fetch(`${gw.url}/v1/questions`)).status).toBe(401);
  });

  it("is reachable under a public name that the Host check refuses for the API", async () => {
    const gw = await serve({ allowedHosts: new Set(["127.0.0.1", "localhost"]) });
    const hook = await postWithHost(`${gw.url}/channels/fake/events`, "bot.example.org", "{}", {
      ...form,
      "content-type": "application/json",
    });
    expect(hook.status).toBe(200);
    const api = await postWithHost(`${gw.url}/v1/questions`, "bot.example.org", "{}", {
      "content-type": "application/json",
    });
    expect(api.status).toBe(403);
    expect(JSON.parse(api.body).error.code).toBe("forbidden_host");
  });

  it("checks every request's Host, also after one that was allowed", async () => {
    const gw = await serve({ allowedHosts: new Set(["127.0.0.1", "localhost"]) });
    const json = { "content-type": "application/json" };
    const allowed = await postWithHost(`${gw.url}/v1/questions`, "localhost:7310", "{}", json);
    expect(allowed.status).toBe(422); // past the Host check: the body is what is wrong
    for (const host of ["evil.example", "localhost.evil.example", "LOCALHOST:7310"]) {
      const next = await postWithHost(`${gw.url}/v1/questions`, host, "{}", json);
      expect([host, next.status]).toEqual([host, host === "LOCALHOST:7310" ? 422 : 403]);
    }
  });

  it("keeps the body limit and the Origin check, and answers an unknown channel with a JSON 404", async () => {
    const gw = await serve();
    const big = await fetch(`${gw.url}/channels/fake`, {
      method: "POST",
      headers: form,
      body: "x".repeat(1024 * 1024 + 1),
    });
    expect(big.status).toBe(413);
    const crossSite = await fetch(`${gw.url}/channels/fake`, {
      method: "POST",
      headers: { ...form, origin: "http://evil.example" },
      body: "a=1",
    });
    expect(crossSite.status).toBe(403);
    expect(gw.seen).toEqual([]);
    const unknown = await fetch(`${gw.url}/channels/other/webhook`, {
      method: "POST",
      headers: form,
      body: "a=1",
    });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as ErrorBody).error.message).toContain('"other"');
  });
});
