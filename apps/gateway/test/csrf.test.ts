import { describe, expect, it } from "vitest";
import type { ApiErrorBody as ErrorBody } from "../src/api.ts";
import { call, deployInput, testGateway } from "./harness.ts";

const json = { "content-type": "application/json" };

/** A POST of `body` with exactly these headers; status, parsed body and headers. */
async function post(url: string, body: string | undefined, headers: Record<string, string>) {
  const response = await fetch(url, { method: "POST", headers, ...(body === undefined ? {} : { body }) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}

async function questionCount(url: string): Promise<number> {
  return (await call(`${url}/v1/questions`, "GET")).body.questions.length;
}

describe("cross-site requests to a gateway without a token", () => {
  it("refuses a state-changing request whose Origin is not the gateway's own, with 403 and a JSON reason", async () => {
    const gw = await testGateway();
    const body = JSON.stringify(deployInput);
    const port = new URL(gw.url).port;
    for (const origin of ["http://evil.example", "null", "http://127.0.0.1:1", `http://localhost:${port}x`]) {
      const refused = await post(`${gw.url}/v1/questions`, body, { ...json, origin });
      expect(refused.status, origin).toBe(403);
      expect(refused.body.error.code, origin).toBe("forbidden_origin");
      expect(refused.body.error.message, origin).toContain("another site");
    }
    const created = await call(`${gw.url}/v1/questions`, "POST", deployInput);
    const id = created.body.id as string;
    const cancel = await fetch(`${gw.url}/v1/questions/${id}`, {
      method: "DELETE",
      headers: { origin: "http://evil.example" },
    });
    expect(cancel.status).toBe(403);
    expect(await questionCount(gw.url)).toBe(1);
    expect((await call(`${gw.url}/v1/questions/${id}`, "GET")).body.status).toBe("pending");

    // The panel's own origin (and a TLS proxy's https:// in front of the same host) is welcome.
    const own = await post(`${gw.url}/v1/questions`, body, { ...json, origin: gw.url });
    expect(own.status).toBe(201);
    const proxied = await post(`${gw.url}/v1/questions`, body, {
      ...json,
      origin: gw.url.replace("http:", "https:"),
    });
    expect(proxied.status).toBe(201);
    // Reading is not state-changing: the Host check guards it.
    expect(
      (await call(`${gw.url}/v1/questions`, "GET", undefined, { origin: "http://evil.example" })).status,
    ).toBe(200);
  });

  it("refuses Sec-Fetch-Site cross-site and same-site, and takes same-origin and none", async () => {
    const gw = await testGateway();
    const body = JSON.stringify(deployInput);
    for (const site of ["cross-site", "same-site"]) {
      const refused = await post(`${gw.url}/v1/ask`, body, { ...json, "sec-fetch-site": site });
      expect(refused.status, site).toBe(403);
      expect(refused.body.error.code).toBe("forbidden_origin");
    }
    for (const site of ["same-origin", "none"]) {
      expect((await post(`${gw.url}/v1/questions`, body, { ...json, "sec-fetch-site": site })).status).toBe(
        201,
      );
    }
    expect(await questionCount(gw.url)).toBe(2);
  });

  it("requires Content-Type: application/json for a body (415), which no form or no-cors fetch can send", async () => {
    const gw = await testGateway();
    const body = JSON.stringify(deployInput);
    for (const type of [
      undefined,
      "text/plain",
      "text/plain;charset=UTF-8",
      "application/x-www-form-urlencoded",
    ]) {
      const refused = await post(
        `${gw.url}/v1/questions`,
        body,
        type === undefined ? {} : { "content-type": type },
      );
      expect(refused.status, type).toBe(415);
      expect(refused.body.error.code).toBe("unsupported_media_type");
      expect(refused.body.error.message).toContain("application/json");
    }
    const multipart = new FormData();
    multipart.set("questions", "[]");
    const form = await fetch(`${gw.url}/v1/questions`, { method: "POST", body: multipart });
    expect(form.status).toBe(415);
    const inbound = await post(`${gw.url}/v1/channels/text/inbound`, "{}", { "content-type": "text/plain" });
    expect(inbound.status).toBe(415);
    expect(await questionCount(gw.url)).toBe(0);

    expect(
      (await post(`${gw.url}/v1/questions`, body, { "content-type": "application/json; charset=utf-8" }))
        .status,
    ).toBe(201);
    // A request without a body needs no type (skip, cancel).
    const id = (await call(`${gw.url}/v1/questions`, "GET")).body.questions[0].id as string;
    expect((await post(`${gw.url}/v1/questions/${id}/skip`, undefined, {})).status).toBe(200);
  });

  it("has one body limit: 413 for more than 1 MiB, with or without Content-Length", async () => {
    const gw = await testGateway();
    const big = JSON.stringify({ ...deployInput, runId: "x".repeat(1024 * 1024) });
    const sized = await post(`${gw.url}/v1/questions`, big, json);
    expect(sized.status).toBe(413);
    expect(sized.body.error.code).toBe("body_too_large");
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 17; i++) controller.enqueue(new Uint8Array(64 * 1024).fill(32));
        controller.close();
      },
    });
    const streamed = await fetch(`${gw.url}/v1/questions`, {
      method: "POST",
      headers: json,
      body: chunks,
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(
      (await post(`${gw.url}/mcp`, big, { ...json, accept: "application/json, text/event-stream" })).status,
    ).toBe(413);
    expect(await questionCount(gw.url)).toBe(0);
  });
});

describe("method and path errors", () => {
  it("answers 405 with Allow for a known path, and a JSON 404 for an unknown one", async () => {
    const gw = await testGateway();
    const { body } = await call(`${gw.url}/v1/questions`, "POST", deployInput);
    for (const [method, path, allow] of [
      ["PUT", "/v1/questions", "GET, HEAD, POST"],
      ["PATCH", `/v1/questions/${body.id}`, "DELETE, GET, HEAD"],
      ["GET", "/v1/ask", "POST"],
      ["GET", `/v1/questions/${body.id}/answer`, "POST"],
      ["POST", "/v1/events", "GET, HEAD"],
      ["DELETE", "/healthz", "GET, HEAD"],
    ] as const) {
      const response = await fetch(`${gw.url}${path}`, { method });
      expect(response.status, `${method} ${path}`).toBe(405);
      expect(response.headers.get("allow"), `${method} ${path}`).toBe(allow);
      expect(((await response.json()) as ErrorBody).error.code).toBe("method_not_allowed");
    }
    const unknown = await call(`${gw.url}/v2/questions`, "GET");
    expect(unknown).toMatchObject({ status: 404, body: { error: { code: "not_found" } } });
    expect(unknown.body.error.message).toContain("/v1");
  });
});

describe("/mcp behind the same guards", () => {
  it("refuses a foreign Origin on POST, and the SDK transport refuses it on its stream too", async () => {
    const gw = await testGateway();
    const headers = { ...json, accept: "application/json, text/event-stream" };
    const initialize = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    });
    const foreign = await post(`${gw.url}/mcp`, initialize, { ...headers, origin: "http://evil.example" });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.code).toBe("forbidden_origin");

    const opened = await fetch(`${gw.url}/mcp`, { method: "POST", headers, body: initialize });
    expect(opened.status).toBe(200);
    await opened.text();
    const session = opened.headers.get("mcp-session-id") ?? "";
    expect(session).not.toBe("");
    // GET is not state-changing, so the gateway's Origin check lets it by; the SDK's own check does not.
    const stream = await fetch(`${gw.url}/mcp`, {
      headers: { accept: "text/event-stream", "mcp-session-id": session, origin: "http://evil.example" },
    });
    expect(stream.status).toBe(403);
    expect(await stream.text()).toContain("Invalid Origin header");
    // The gateway's own page is let through to MCP, which answers it as it answers a client without an
    // Origin (whether it offers a stream on GET is MCP's business).
    const reached = async (headers: Record<string, string>) => {
      const abort = new AbortController();
      const response = await fetch(`${gw.url}/mcp`, {
        headers: { accept: "text/event-stream", "mcp-session-id": session, ...headers },
        signal: abort.signal,
      });
      abort.abort();
      return { status: response.status, allow: response.headers.get("allow") };
    };
    const own = await reached({ origin: gw.url });
    expect(own.status).not.toBe(403);
    expect(own).toEqual(await reached({}));
  });

  it("answers a body that is not JSON with a JSON-RPC parse error", async () => {
    const gw = await testGateway();
    const response = await post(`${gw.url}/mcp`, "{oops", {
      ...json,
      accept: "application/json, text/event-stream",
    });
    expect(response).toMatchObject({ status: 400, body: { jsonrpc: "2.0", error: { code: -32700 } } });
  });
});
