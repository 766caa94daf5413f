import { describe, expect, it } from "vitest";
import type { ApiErrorBody as ErrorBody } from "../src/api.ts";
import { call, deployInput, testGateway } from "./harness.ts";

const TOKEN = "auth-test-token-0123456789abcdef";
const auth = { authorization: `Bearer ${TOKEN}` };

/** The status and the first bytes of a GET on the event stream (its body never ends by itself). */
async function openStream(url: string, headers: Record<string, string> = {}) {
  const abort = new AbortController();
  const response = await fetch(url, { headers, signal: abort.signal });
  const type = response.headers.get("content-type");
  const challenge = response.headers.get("www-authenticate");
  abort.abort();
  return { status: response.status, type, challenge };
}

describe("bearer auth", () => {
  it("answers 401 with WWW-Authenticate: Bearer realm=ask-user, everywhere but the open paths", async () => {
    const gw = await testGateway({ ASK_USER_TOKEN: TOKEN });
    for (const [method, path] of [
      ["GET", "/v1/questions"],
      ["POST", "/v1/questions"],
      ["GET", "/v1/nothing-here"],
      ["POST", "/mcp"],
    ] as const) {
      const response = await fetch(`${gw.url}${path}`, {
        method,
        headers: { "content-type": "application/json" },
        ...(method === "POST" ? { body: "{}" } : {}),
      });
      expect(response.status, path).toBe(401);
      expect(response.headers.get("www-authenticate"), path).toBe('Bearer realm="ask-user"');
      expect(((await response.json()) as ErrorBody).error.code, path).toBe("unauthorized");
    }
    const wrong = await fetch(`${gw.url}/v1/questions`, { headers: { authorization: "Bearer nope" } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toBe('Bearer realm="ask-user", error="invalid_token"');
    expect((await call(`${gw.url}/v1/questions`, "GET", undefined, auth)).status).toBe(200);
    expect((await call(`${gw.url}/healthz`, "GET")).status).toBe(200);
    expect((await fetch(`${gw.url}/`, { headers: { accept: "application/json" } })).status).toBe(200);
  });

  it("takes ?token= on GET /v1/events only, never on the rest of the API or MCP", async () => {
    const gw = await testGateway({ ASK_USER_TOKEN: TOKEN });
    const listed = await call(`${gw.url}/v1/questions?token=${TOKEN}`, "GET");
    expect(listed.status).toBe(401);
    expect(listed.body.error.message).toContain("only on GET /v1/events");
    const created = await call(`${gw.url}/v1/questions?token=${TOKEN}`, "POST", deployInput);
    expect(created.status).toBe(401);
    expect((await call(`${gw.url}/mcp?token=${TOKEN}`, "POST", {})).status).toBe(401);
    expect((await call(`${gw.url}/v1/questions`, "GET", undefined, auth)).body.questions).toEqual([]);

    const stream = await openStream(`${gw.url}/v1/events?token=${TOKEN}`);
    expect(stream).toMatchObject({ status: 200, type: expect.stringContaining("text/event-stream") });
    expect((await openStream(`${gw.url}/v1/events?token=wrong-token`)).status).toBe(401);
    // A header, when sent, is what counts.
    const both = await openStream(`${gw.url}/v1/events?token=${TOKEN}`, { authorization: "Bearer wrong" });
    expect(both.status).toBe(401);
    expect(both.challenge).toContain('realm="ask-user"');
  });

  it("compares the token whole: a prefix, a longer value or another scheme is refused", async () => {
    const gw = await testGateway({ ASK_USER_TOKEN: TOKEN });
    for (const authorization of [
      `Bearer ${TOKEN.slice(0, -1)}`,
      `Bearer ${TOKEN}x`,
      `Basic ${Buffer.from(`user:${TOKEN}`).toString("base64")}`,
      `Bearer`,
      TOKEN,
    ]) {
      const response = await call(`${gw.url}/v1/questions`, "GET", undefined, { authorization });
      expect(response.status, authorization).toBe(401);
    }
    expect(
      (await call(`${gw.url}/v1/questions`, "GET", undefined, { authorization: `bearer ${TOKEN}` })).status,
    ).toBe(200);
  });
});
