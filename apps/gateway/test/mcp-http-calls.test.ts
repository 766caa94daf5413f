import { afterEach, describe, expect, it, vi } from "vitest";
import { CallAbort, withSignal } from "../src/mcp/abort.ts";
import { FakeBackend } from "../src/mcp/fake-backend.ts";
import { createMcpHttpHandler } from "../src/mcp/index.ts";
import { deployInput, listenMcp } from "./harness.ts";

const silent = { warn: () => {}, error: () => {} };
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The handler on a server that records, per request, when `handle` resolved. */
async function serve() {
  const backend = new FakeBackend();
  const mcp = createMcpHttpHandler({ backend, logger: silent, progressIntervalMs: 60_000 });
  const handled: boolean[] = [];
  const url = await listenMcp(mcp, cleanups, (req, res) => {
    const index = handled.push(false) - 1;
    void mcp.handle(req, res).then(() => {
      handled[index] = true;
    });
  });
  const post = (body: unknown, headers: Record<string, string> = {}, stream = true) =>
    fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: stream ? "application/json, text/event-stream" : "application/json",
        ...headers,
      },
      body: JSON.stringify(body),
    });
  const init = await post({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  });
  const session = { "mcp-session-id": init.headers.get("mcp-session-id") ?? "" };
  await init.text();
  return { backend, handled, post: (body: unknown, stream = true) => post(body, session, stream) };
}

const askUser = (id: number, runId: string) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "ask_user", arguments: { ...deployInput, runId } },
});

/** The JSON-RPC messages of an event stream. */
const events = (text: string) =>
  text
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice(6)) as { id?: number; result?: Record<string, unknown> });

describe("MCP over HTTP: what a waiting call holds", () => {
  it("handle resolves once the call waits (its caller lets go of the request); the result still comes", async () => {
    const { backend, handled, post } = await serve();
    const response = post(askUser(1, "run-1"));
    const question = await backend.nextPending();
    // Requests: initialize, then the call. The call waits, yet its handle() has resolved.
    await vi.waitFor(() => expect(handled[1]).toBe(true));
    expect(backend.records.get(question.id)?.status).toBe("pending");
    backend.answer(question.id, { deploy_target: ["Production"] });
    const text = await (await response).text();
    expect(events(text).find((m) => m.id === 1)?.result?.structuredContent).toMatchObject({
      status: "answered",
    });
  });

  it("a batch with a waiting call streams each response as it is ready, in one stream", async () => {
    const { backend, post } = await serve();
    const response = await post([askUser(1, "run-b"), { jsonrpc: "2.0", id: 2, method: "ping" }]);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const question = await backend.nextPending();
    backend.answer(question.id, { deploy_target: ["Staging (Recommended)"] });
    const messages = events(await response.text());
    expect(messages.map((m) => m.id)).toEqual([2, 1]);
    expect(messages[1]?.result?.structuredContent).toMatchObject({ status: "answered" });
  });

  it("a batch answered as JSON keeps the requests' order; notifications alone get 202", async () => {
    const { post } = await serve();
    const batch = await post(
      [
        { jsonrpc: "2.0", id: "a", method: "tools/list" },
        { jsonrpc: "2.0", id: "b", method: "no/such" },
        { jsonrpc: "2.0", id: "c", method: "ping" },
      ],
      false,
    );
    const body = (await batch.json()) as Array<{ id: string; error?: { code: number } }>;
    expect(body.map((m) => m.id)).toEqual(["a", "b", "c"]);
    expect(body[1]?.error?.code).toBe(-32601);
    const note = await post({ jsonrpc: "2.0", method: "notifications/initialized" });
    expect(note.status).toBe(202);
  });

  it("notifications/cancelled cancels the one call it names, not the other of the same session", async () => {
    const { backend, post } = await serve();
    const first = post(askUser(1, "run-x"));
    const one = await backend.nextPending();
    const second = post(askUser(2, "run-y"));
    await vi.waitFor(() => expect(backend.records.size).toBe(2));
    const other = [...backend.records.values()].find((r) => r.id !== one.id);
    await post({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "no" } });
    await vi.waitFor(() => expect(backend.records.get(one.id)?.status).toBe("cancelled"));
    expect(events(await (await first).text()).some((m) => m.id === 1)).toBe(false);
    expect(backend.records.get(other?.id ?? "")?.status).toBe("pending");
    backend.answer(other?.id ?? "", { deploy_target: ["Production"] });
    expect(events(await (await second).text()).find((m) => m.id === 2)?.result).toBeDefined();
  });
});

describe("CallAbort", () => {
  it("tells each listener once, in order, and none that was removed or came after", () => {
    const abort = new CallAbort();
    const told: string[] = [];
    const a = { handleEvent: () => told.push("a") };
    const b = { handleEvent: () => told.push("b") };
    const c = { handleEvent: () => told.push("c") };
    abort.addEventListener("abort", a);
    abort.addEventListener("abort", b);
    abort.addEventListener("abort", c);
    abort.removeEventListener("abort", b);
    abort.abort("why");
    abort.abort("again");
    abort.addEventListener("abort", b);
    expect(told).toEqual(["a", "c"]);
    expect(abort.aborted).toBe(true);
    expect(abort.reason).toBe("why");
  });

  it("withSignal lends a real AbortSignal that follows it while in use, then lets go", async () => {
    const abort = new CallAbort();
    let lent: AbortSignal | undefined;
    let release: () => void = () => {};
    const used = withSignal(abort, (signal) => {
      lent = signal;
      return new Promise<void>((resolve) => {
        release = resolve;
      });
    });
    abort.abort(new Error("Request timed out"));
    expect(lent?.aborted).toBe(true);
    expect(String(lent?.reason)).toMatch(/timed out/);
    release();
    await used;

    const later = new CallAbort();
    let second: AbortSignal | undefined;
    await withSignal(later, async (signal) => {
      second = signal;
    });
    later.abort("after");
    expect(second?.aborted).toBe(false);

    const real = new AbortController().signal;
    await withSignal(real, async (signal) => expect(signal).toBe(real));
  });
});
