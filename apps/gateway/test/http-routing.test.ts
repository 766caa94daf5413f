/**
 * Routing comes before the content checks: a path the gateway does not have is a JSON 404, and a known
 * path asked with another method is a 405 with `Allow` and a JSON body — whatever the request's
 * Content-Type and body. Only a request a route takes is checked for its type (415) and size (413).
 */
import { describe, expect, it } from "vitest";
import type { ApiErrorBody } from "../src/api.ts";
import { call, deployInput, testGateway } from "./harness.ts";

/** The content types a request is tried with: none, not JSON, JSON. */
const TYPES = [undefined, "text/plain", "application/json"] as const;

async function send(url: string, method: string, type: string | undefined) {
  const withBody = method !== "GET" && method !== "HEAD";
  const response = await fetch(url, {
    method,
    headers: type === undefined ? {} : { "content-type": type },
    ...(withBody ? { body: type === "application/json" ? "{}" : "hello" } : {}),
  });
  const text = await response.text();
  return {
    status: response.status,
    allow: response.headers.get("allow"),
    type: response.headers.get("content-type"),
    body: text === "" ? undefined : (JSON.parse(text) as ApiErrorBody),
  };
}

describe("routing before content checks", () => {
  it("answers a path it does not have with a JSON 404, whatever the method and content type", async () => {
    const gw = await testGateway();
    for (const path of ["/nope", "/v1/nothing", "/v2/questions", "/v1/questions/a.b/answer", "/mcp/x"]) {
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
        for (const type of TYPES) {
          const what = `${method} ${path} (${type ?? "no type"})`;
          const response = await send(`${gw.url}${path}`, method, type);
          expect(response.status, what).toBe(404);
          expect(response.type, what).toContain("application/json");
          expect(response.body?.error.code, what).toBe("not_found");
          expect(response.body?.error.message, what).toBe(
            `No route ${method} ${path}. The API lives under /v1.`,
          );
        }
      }
    }
  });

  it("answers a known path asked with another method with 405, Allow and a JSON body, whatever the content type", async () => {
    const gw = await testGateway();
    const { body } = await call(`${gw.url}/v1/questions`, "POST", deployInput);
    const id = body.id as string;
    const table: Array<[path: string, methods: string[], allow: string]> = [
      ["/v1/questions", ["PUT", "PATCH", "DELETE", "OPTIONS"], "GET, HEAD, POST"],
      [`/v1/questions/${id}`, ["POST", "PUT", "PATCH", "OPTIONS"], "DELETE, GET, HEAD"],
      [`/v1/questions/${id}/answer`, ["GET", "PUT", "DELETE"], "POST"],
      [`/v1/questions/${id}/skip`, ["GET", "PATCH"], "POST"],
      ["/v1/ask", ["GET", "PUT", "HEAD"], "POST"],
      ["/v1/events", ["POST", "PUT"], "GET, HEAD"],
      ["/v1/channels/text/inbound", ["GET", "PUT"], "POST"],
      ["/mcp", ["PUT", "PATCH", "HEAD", "OPTIONS"], "DELETE, GET, POST"],
      ["/healthz", ["POST", "PUT", "DELETE"], "GET, HEAD"],
      ["/", ["POST", "PUT"], "GET, HEAD"],
    ];
    for (const [path, methods, allow] of table) {
      for (const method of methods) {
        for (const type of TYPES) {
          const what = `${method} ${path} (${type ?? "no type"})`;
          const response = await send(`${gw.url}${path}`, method, type);
          expect(response.status, what).toBe(405);
          expect(response.allow, what).toBe(allow);
          expect(response.type, what).toContain("application/json");
          // A HEAD answer has no body; every other one says what is allowed.
          if (method !== "HEAD") {
            expect(response.body?.error, what).toEqual({
              code: "method_not_allowed",
              message: `${method} is not allowed on ${path} (allowed: ${allow}).`,
            });
          }
        }
      }
    }
    // Nothing of it touched the question.
    expect((await call(`${gw.url}/v1/questions/${id}`, "GET")).body.status).toBe("pending");
  });

  it("checks the type and size only of a request a route takes", async () => {
    const gw = await testGateway();
    const refused = await send(`${gw.url}/v1/questions`, "POST", "text/plain");
    expect(refused).toMatchObject({ status: 415, body: { error: { code: "unsupported_media_type" } } });
    const untyped = await send(`${gw.url}/v1/ask`, "POST", undefined);
    expect(untyped).toMatchObject({ status: 415, body: { error: { code: "unsupported_media_type" } } });
    const huge = await fetch(`${gw.url}/v1/nowhere`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "x".repeat(2 * 1024 * 1024),
    });
    expect(huge.status).toBe(404);
    // The webhooks take any method and any type (each platform's handler answers for itself).
    const webhook = await send(`${gw.url}/channels/nobody/events`, "PUT", "text/plain");
    expect(webhook).toMatchObject({ status: 404, body: { error: { code: "not_found" } } });
    expect(webhook.body?.error.message).toContain('No webhook for a channel named "nobody"');
  });

  it("answers HEAD like GET without a body, and OPTIONS with 405 and Allow (no CORS preflight is granted)", async () => {
    const gw = await testGateway();
    for (const path of ["/healthz", "/v1/questions", "/v1/events"]) {
      const head = await fetch(`${gw.url}${path}`, { method: "HEAD" });
      expect(head.status, path).toBe(200);
      expect(await head.text(), path).toBe("");
    }
    expect((await fetch(`${gw.url}/v1/events`, { method: "HEAD" })).headers.get("content-type")).toContain(
      "text/event-stream",
    );
    const preflight = await fetch(`${gw.url}/v1/questions`, {
      method: "OPTIONS",
      headers: { origin: "http://evil.example", "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(405);
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
  });
});
