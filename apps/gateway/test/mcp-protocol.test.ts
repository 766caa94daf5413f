import { request } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FakeBackend } from "../src/mcp/fake-backend.ts";
import { createMcpHttpHandler, createMcpServer, type McpHttpHandlerOptions } from "../src/mcp/index.ts";
import { deployInput, listenMcp } from "./harness.ts";

const silent = { warn: () => {}, error: () => {} };
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(options: Partial<McpHttpHandlerOptions> = {}) {
  const backend = new FakeBackend();
  const mcp = createMcpHttpHandler({ backend, logger: silent, ...options });
  const url = await listenMcp(mcp, cleanups);
  const connect = async () => {
    const transport = new StreamableHTTPClientTransport(url);
    const client = new Client({ name: "protocol-test", version: "1.0.0" });
    await client.connect(transport);
    cleanups.push(() => client.close());
    return { client, transport };
  };
  return { backend, url, connect };
}

const post = (url: URL, body: string, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body,
  });

describe("MCP protocol errors", () => {
  it("names an unknown tool in one clean message, over HTTP and over the SDK server", async () => {
    const { connect } = await serve();
    const { client } = await connect();
    await expect(client.callTool({ name: "ask_admin", arguments: {} })).rejects.toThrow(
      /^MCP error -32602: Unknown tool "ask_admin"; this server has ask_user\.$/,
    );

    const server = createMcpServer({ backend: new FakeBackend(), logger: silent });
    const local = new Client({ name: "protocol-test", version: "1.0.0" });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(b), local.connect(a)]);
    cleanups.push(async () => {
      await local.close();
      await server.close();
    });
    await expect(local.callTool({ name: "ask_admin", arguments: {} })).rejects.toThrow(
      /^MCP error -32602: Unknown tool "ask_admin"; this server has ask_user\.$/,
    );
  });

  it.each([
    ["a JSON object that is no JSON-RPC message", { hello: "world" }],
    ["a JSON-RPC message without the version", { id: 1, method: "initialize" }],
    ["an empty batch", []],
  ])("answers %s with -32600 Invalid Request (JSON-RPC 2.0), not a parse error", async (_name, body) => {
    const { url } = await serve();
    const response = await post(url, JSON.stringify(body));
    expect(response.status).toBe(400);
    const reply = (await response.json()) as { error: { code: number; message: string }; id: null };
    expect(reply).toMatchObject({ error: { code: -32600 }, id: null });
    expect(reply.error.message).toMatch(/^Invalid Request/);
  });

  it("answers a body that is not JSON with -32700 Parse error", async () => {
    const { url } = await serve();
    const response = await post(url, "{not json");
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32700);
  });

  it("reads a too-large body to its end before answering 413, so the client reads the answer", async () => {
    const { url } = await serve({ maxBodyBytes: 1024 });
    const body = Buffer.alloc(8 * 1024 * 1024, "a");
    const reply = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        url,
        { method: "POST", headers: { "content-type": "application/json", "content-length": body.length } },
        (res) => {
          let text = "";
          res.on("data", (chunk) => {
            text += chunk;
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on("error", reject);
      // Written in pieces, as a client streams a large body: the answer must wait for the last one.
      let offset = 0;
      const writeMore = () => {
        while (offset < body.length) {
          const piece = body.subarray(offset, offset + 64 * 1024);
          offset += piece.length;
          if (!req.write(piece)) return void req.once("drain", writeMore);
        }
        req.end();
      };
      writeMore();
    });
    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.text)).toMatchObject({ error: { message: /too large/ } });
  });

  it("answers GET with 405 (no server stream), which the SDK client takes in its stride", async () => {
    const { url, connect } = await serve();
    const { client, transport } = await connect();
    const response = await fetch(url, {
      headers: { accept: "text/event-stream", "mcp-session-id": transport.sessionId ?? "" },
    });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST, DELETE");
    expect((await client.ping()) as object).toEqual({});
  });

  it("refuses an unsupported mcp-protocol-version header and unknown methods", async () => {
    const { url, connect } = await serve();
    const { client, transport } = await connect();
    const session = { "mcp-session-id": transport.sessionId ?? "" };
    const list = JSON.stringify({ jsonrpc: "2.0", id: 5, method: "tools/list" });
    const wrong = await post(url, list, { ...session, "mcp-protocol-version": "1999-01-01" });
    expect(wrong.status).toBe(400);
    await expect(client.listResources()).rejects.toThrow(/-32601/);
  });

  it("cancels a call whose client sent notifications/cancelled with another reason at once", async () => {
    const { backend, connect } = await serve({ timeoutGraceMs: 60_000 });
    const { client } = await connect();
    const abort = new AbortController();
    const call = client.callTool({ name: "ask_user", arguments: deployInput }, undefined, {
      signal: abort.signal,
    });
    const question = await backend.nextPending();
    abort.abort("the user pressed Esc");
    await expect(call).rejects.toThrow();
    await vi.waitFor(() => expect(backend.records.get(question.id)?.status).toBe("cancelled"));
  });
});
