import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FakeBackend } from "../src/mcp/fake-backend.ts";
import { createMcpHttpHandler, createMcpServer, isClientTimeout } from "../src/mcp/index.ts";
import { deployInput, listenMcp } from "./harness.ts";

const silent = { warn: () => {}, error: () => {} };
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const GRACE_MS = 1500;

/** A client of a server over `backend`: Streamable HTTP (one session per client) or the SDK server. */
async function clientOf(kind: "http" | "sdk", backend: FakeBackend, graceMs = GRACE_MS) {
  const options = { backend, logger: silent, timeoutGraceMs: graceMs, sliceSeconds: 1 };
  const client = new Client({ name: "timeout-test", version: "1.0.0" });
  if (kind === "sdk") {
    const server = createMcpServer(options);
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(b), client.connect(a)]);
    cleanups.push(async () => {
      await client.close();
      await server.close();
    });
    return { client, another: undefined };
  }
  const mcp = createMcpHttpHandler(options);
  const url = await listenMcp(mcp, cleanups);
  await client.connect(new StreamableHTTPClientTransport(url));
  cleanups.push(() => client.close());
  /** Another client (its own session) of the same server. */
  const another = async () => {
    const other = new Client({ name: "timeout-test-2", version: "1.0.0" });
    await other.connect(new StreamableHTTPClientTransport(url));
    cleanups.push(() => other.close());
    return other;
  };
  return { client, another };
}

describe("isClientTimeout", () => {
  it("knows the SDK's timeout cancellations and AbortSignal.timeout(), and nothing else", () => {
    expect(isClientTimeout("McpError: MCP error -32001: Request timed out")).toBe(true);
    expect(isClientTimeout("McpError: MCP error -32001: Maximum total timeout exceeded")).toBe(true);
    expect(
      isClientTimeout(new DOMException("The operation was aborted due to timeout", "TimeoutError")),
    ).toBe(true);
    expect(isClientTimeout(new DOMException("This operation was aborted", "AbortError"))).toBe(false);
    expect(isClientTimeout("the user pressed Esc")).toBe(false);
    expect(isClientTimeout(undefined)).toBe(false);
  });
});

describe.each(["http", "sdk"] as const)("a client's request timeout (%s)", (kind) => {
  it("keeps the question; the same call repeated resumes it and gets the answer given meanwhile", async () => {
    const backend = new FakeBackend();
    const { client } = await clientOf(kind, backend);
    const args = { ...deployInput, runId: "run-7" };
    await expect(
      client.callTool({ name: "ask_user", arguments: args }, undefined, { timeout: 300 }),
    ).rejects.toThrow(/Request timed out/);
    const question = await backend.nextPending();
    // The person answers once the server saw the client give up (nothing waits for the answer then).
    await vi.waitFor(() => expect(backend.waiting).toBe(0));
    expect(backend.records.get(question.id)?.status).toBe("pending");
    backend.answer(question.id, { deploy_target: ["Production"] });
    // The same input in another key order is the same call.
    const again = await client.callTool({
      name: "ask_user",
      arguments: { runId: "run-7", questions: args.questions },
    });
    expect(again.structuredContent).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"] } },
    });
    expect(backend.records.size).toBe(1); // asked once
  });

  it("a repeated call that times out again keeps the same question waiting", async () => {
    const backend = new FakeBackend();
    const { client } = await clientOf(kind, backend);
    for (let attempt = 0; attempt < 3; attempt++) {
      await expect(
        client.callTool({ name: "ask_user", arguments: deployInput }, undefined, { timeout: 250 }),
      ).rejects.toThrow(/Request timed out/);
    }
    expect(backend.records.size).toBe(1);
    const question = await backend.nextPending();
    await vi.waitFor(() => expect(backend.waiting).toBe(0)); // the last timed-out call is parked
    const last = client.callTool({ name: "ask_user", arguments: deployInput });
    await vi.waitFor(() => expect(backend.waiting).toBe(1)); // … and resumed by this one
    backend.end(question.id, "skipped");
    expect((await last).structuredContent).toEqual({ status: "no_answer", reason: "skipped" });
    expect(backend.records.size).toBe(1);
  });

  it("different input after a timeout is a new question; the parked one is cancelled after the grace", async () => {
    const backend = new FakeBackend();
    const { client } = await clientOf(kind, backend, 400);
    await expect(
      client.callTool({ name: "ask_user", arguments: deployInput }, undefined, { timeout: 250 }),
    ).rejects.toThrow(/Request timed out/);
    const first = await backend.nextPending();
    const other = { ...deployInput, timeoutSeconds: 120 };
    const second = client.callTool({ name: "ask_user", arguments: other });
    await vi.waitFor(() => expect(backend.records.get(first.id)?.status).toBe("cancelled"));
    expect(backend.records.size).toBe(2);
    const secondId = [...backend.records.keys()].find((id) => id !== first.id) ?? "";
    backend.answer(secondId, { deploy_target: ["Production"] });
    expect((await second).structuredContent).toMatchObject({ status: "answered" });
  });
});

describe("resuming over Streamable HTTP", () => {
  it("a runId resumes from another session; without it another session asks anew", async () => {
    const backend = new FakeBackend();
    const { client, another } = await clientOf("http", backend);
    const withRun = { ...deployInput, runId: "agent-run-1" };
    await expect(
      client.callTool({ name: "ask_user", arguments: withRun }, undefined, { timeout: 250 }),
    ).rejects.toThrow(/Request timed out/);
    await expect(
      client.callTool({ name: "ask_user", arguments: deployInput }, undefined, { timeout: 250 }),
    ).rejects.toThrow(/Request timed out/);
    expect(backend.records.size).toBe(2);
    const other = await (another as () => Promise<Client>)();
    const resumed = other.callTool({ name: "ask_user", arguments: withRun });
    const fresh = other.callTool({ name: "ask_user", arguments: deployInput });
    await vi.waitFor(() => expect(backend.records.size).toBe(3)); // only the call without runId asked again
    backend.answer("q1", { deploy_target: ["Production"] });
    backend.answer("q3", { deploy_target: ["Production"] });
    expect((await resumed).structuredContent).toMatchObject({ status: "answered" });
    expect((await fresh).structuredContent).toMatchObject({ status: "answered" });
  });
});
