import { fileURLToPath, pathToFileURL } from "node:url";
import { ASK_USER_DESCRIPTION, type AskUserLogger, askUserTool } from "@ask-user/core";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Progress } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { QuestionBackend } from "../src/backend.ts";
import { FakeBackend } from "../src/mcp/fake-backend.ts";
import { createMcpHttpHandler, createMcpServer, type McpServerOptions } from "../src/mcp/index.ts";
import { listenMcp } from "./harness.ts";

const deploy = {
  questions: [
    {
      id: "deploy_target",
      header: "Deploy",
      question: "Where should I deploy?",
      options: [{ label: "Staging (Recommended)", description: "Safe, reversible" }, { label: "Production" }],
    },
  ],
  timeoutSeconds: 60,
};

const logged: string[] = [];
const logger: AskUserLogger = {
  warn: (_details, message) => logged.push(`warn: ${message}`),
  error: (_details, message) => logged.push(`error: ${message}`),
};

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  logged.length = 0;
});

async function connect(backend: QuestionBackend, options: Partial<McpServerOptions> = {}) {
  const server = createMcpServer({ backend, logger, ...options });
  const client = new Client({ name: "test", version: "1.0.0" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  cleanups.push(async () => {
    await client.close();
    await server.close();
  });
  return client;
}

function textOf(result: object): string {
  const content = (result as { content: Array<{ type: string; text?: string }> }).content;
  return content.map((part) => part.text ?? "").join("\n");
}

describe("the ask_user MCP tool", () => {
  it("is listed with core's description and input schema plus optional target, locale and runId, as a tool that may run as a task", async () => {
    const client = await connect(new FakeBackend());
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["ask_user"]);
    const tool = tools[0];
    expect(tool?.description).toContain(ASK_USER_DESCRIPTION);
    expect(tool?.description).toContain("gateway's default target (or only the web panel");
    expect(tool?.description).toContain("locale: Optional: the language of the person you ask");
    const { target, locale, runId, ...coreProperties } = tool?.inputSchema.properties ?? {};
    expect(coreProperties).toEqual(askUserTool.inputSchema.properties);
    expect(locale).toMatchObject({ type: "string" });
    expect(runId).toMatchObject({ type: "string", maxLength: 200 });
    expect(tool?.execution).toEqual({ taskSupport: "optional" });
    expect(target).toMatchObject({
      anyOf: [{ type: "string" }, { type: "object", required: ["channel", "conversation"] }],
    });
    expect(tool?.inputSchema.required).toEqual(["questions"]);
    expect(tool?.outputSchema?.type).toBe("object");
  });

  it("returns the answer as structuredContent and a one-line summary", async () => {
    const backend = new FakeBackend();
    const client = await connect(backend);
    const call = client.callTool({ name: "ask_user", arguments: { ...deploy, target: "telegram:123456" } });
    const question = await backend.nextPending();
    backend.answer(question.id, { deploy_target: ["Production"] });
    const result = await call;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"] } },
    });
    expect(textOf(result)).toBe("answered: deploy_target = Production");
    expect(backend.bodies[0]?.target).toEqual({ channel: "telegram", conversation: "123456" });
  });

  it("asks at the default target when the call names none, and at none when there is no default", async () => {
    const withDefault = new FakeBackend();
    const client = await connect(withDefault, { defaultTarget: "slack:C123" });
    const call = client.callTool({ name: "ask_user", arguments: deploy });
    withDefault.answer((await withDefault.nextPending()).id, { deploy_target: ["Staging (Recommended)"] });
    expect(textOf(await call)).toBe("answered: deploy_target = Staging (Recommended)");
    expect(withDefault.bodies[0]?.target).toEqual({ channel: "slack", conversation: "C123" });

    const withoutDefault = new FakeBackend();
    const other = await connect(withoutDefault);
    const second = other.callTool({
      name: "ask_user",
      arguments: { ...deploy, target: { channel: "discord", conversation: "9" } },
    });
    withoutDefault.end((await withoutDefault.nextPending()).id, "skipped");
    await second;
    expect(withoutDefault.bodies[0]?.target).toEqual({ channel: "discord", conversation: "9" });
    const third = other.callTool({ name: "ask_user", arguments: deploy });
    withoutDefault.end((await withoutDefault.nextPending()).id, "skipped");
    await third;
    expect(withoutDefault.bodies[1]).not.toHaveProperty("target");
  });

  it.each([
    ["expired", "no_answer (expired): continue with your best judgment"],
    ["skipped", "no_answer (skipped): the user chose not to answer; continue with your best judgment"],
    [
      "undeliverable",
      "no_answer (undeliverable): the question could not be delivered; continue with your best judgment",
    ],
  ] as const)("reports a question that ended %s as no_answer with that reason", async (status, text) => {
    const backend = new FakeBackend();
    const client = await connect(backend);
    const call = client.callTool({ name: "ask_user", arguments: deploy });
    backend.end((await backend.nextPending()).id, status);
    const result = await call;
    expect(result.structuredContent).toEqual({ status: "no_answer", reason: status });
    expect(textOf(result)).toBe(text);
  });

  it("writes several answers and values with commas so that the summary stays unambiguous", async () => {
    const backend = new FakeBackend();
    const client = await connect(backend);
    const regions = {
      id: "regions",
      header: "Regions",
      question: "Which regions?",
      multiSelect: true,
      options: [{ label: "EU" }, { label: "US, Canada" }],
    };
    const call = client.callTool({
      name: "ask_user",
      arguments: { questions: [...deploy.questions, regions] },
    });
    const question = await backend.nextPending();
    backend.answer(question.id, { regions: ["EU", "US, Canada"], deploy_target: ["Production"] });
    expect(textOf(await call)).toBe('answered: deploy_target = Production; regions = ["EU","US, Canada"]');
  });

  it("answers bad input with a tool error listing every problem with its path", async () => {
    const backend = new FakeBackend();
    const client = await connect(backend);
    const bad = {
      questions: [
        { ...deploy.questions[0], id: "Deploy Target", options: [{ label: "Staging" }, { label: "Other" }] },
      ],
    };
    const result = await client.callTool({ name: "ask_user", arguments: bad });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^The ask_user input has 2 problems/);
    expect(textOf(result)).toContain("- questions[0].id: ");
    expect(textOf(result)).toContain('- questions[0].options[1].label: Remove the "Other" option');
    expect(backend.records.size).toBe(0);
  });

  it("flags an unknown field and a malformed target together with the problems of the questions", async () => {
    const backend = new FakeBackend();
    const client = await connect(backend);
    const args = { questions: [{ ...deploy.questions[0], id: "Deploy" }], target: "telegram", colour: "red" };
    const result = await client.callTool({ name: "ask_user", arguments: args });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toContain('- colour: Unknown field "colour"');
    expect(text).toContain("- target: target is not a valid target.");
    expect(text).toContain("- questions[0].id: ");
    expect(backend.bodies).toEqual([]);
  });

  it("turns a backend failure into a tool error and logs it", async () => {
    const backend = new FakeBackend();
    backend.failure = new Error("connect ECONNREFUSED 127.0.0.1:7310");
    const client = await connect(backend);
    const result = await client.callTool({ name: "ask_user", arguments: deploy });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("ask_user failed: connect ECONNREFUSED 127.0.0.1:7310");
    expect(logged).toEqual(["error: ask_user over MCP failed"]);
  });

  it("ends a failure's sentence once when the backend's message has its own full stop", async () => {
    const backend = new FakeBackend();
    backend.failure = new Error("The gateway is not running (or set ASK_USER_URL).");
    const client = await connect(backend);
    const text = textOf(await client.callTool({ name: "ask_user", arguments: deploy }));
    expect(text).toContain("ask_user failed: The gateway is not running (or set ASK_USER_URL). The question");
    expect(text).not.toContain("..");
  });
});

describe("waiting for the answer over MCP", () => {
  it("sends progress with seconds elapsed, the timeout as total and the time left", async () => {
    const backend = new FakeBackend();
    const client = await connect(backend, { progressIntervalMs: 100, sliceSeconds: 1 });
    const seen: Progress[] = [];
    const call = client.callTool({ name: "ask_user", arguments: deploy }, undefined, {
      onprogress: (progress) => seen.push(progress),
    });
    const question = await backend.nextPending();
    await vi.waitFor(() => expect(seen.length).toBeGreaterThanOrEqual(3), { timeout: 5000 });
    backend.answer(question.id, { deploy_target: ["Production"] });
    await call;
    expect(seen[0]).toEqual({ progress: 0, total: 60, message: "Waiting for an answer — 1:00 left" });
    for (const [index, progress] of seen.entries()) {
      expect(progress.total).toBe(60);
      expect(progress.message).toMatch(/^Waiting for an answer — (1:00|0:5\d) left$/);
      if (index > 0)
        expect(progress.progress).toBeGreaterThan(seen[index - 1]?.progress ?? Number.POSITIVE_INFINITY);
    }
  });

  it("sends no progress to a client that asked for none", async () => {
    const backend = new FakeBackend();
    const client = await connect(backend, { progressIntervalMs: 50 });
    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);
    const call = client.callTool({ name: "ask_user", arguments: deploy });
    const question = await backend.nextPending();
    await new Promise((resolve) => setTimeout(resolve, 250));
    backend.answer(question.id, { deploy_target: ["Production"] });
    await call;
    expect(errors).toEqual([]);
  });

  it("keeps a call alive past the client's request timeout when the client resets it on progress", async () => {
    const backend = new FakeBackend();
    const client = await connect(backend, { progressIntervalMs: 100 });
    const call = client.callTool({ name: "ask_user", arguments: deploy }, undefined, {
      timeout: 500,
      resetTimeoutOnProgress: true,
      onprogress: () => {},
    });
    const question = await backend.nextPending();
    await new Promise((resolve) => setTimeout(resolve, 1200));
    backend.answer(question.id, { deploy_target: ["Production"] });
    expect((await call).structuredContent).toMatchObject({ status: "answered" });
  });

  it("loses the call at the client's request timeout; the question is cancelled after the grace, not at once", async () => {
    const backend = new FakeBackend();
    const client = await connect(backend, { progressIntervalMs: 100, timeoutGraceMs: 600 });
    const call = client.callTool({ name: "ask_user", arguments: deploy }, undefined, { timeout: 300 });
    const question = await backend.nextPending();
    await expect(call).rejects.toThrow(/Request timed out/);
    const timedOutAt = Date.now();
    await vi.waitFor(() => expect(backend.records.get(question.id)?.status).toBe("cancelled"));
    expect(Date.now() - timedOutAt).toBeGreaterThanOrEqual(400);
  });

  it("rides out a gateway that is briefly unreachable while it waits", async () => {
    const backend = new FakeBackend();
    const client = await connect(backend, { retryDelayMs: 20 });
    backend.failingGets = 3;
    const call = client.callTool({ name: "ask_user", arguments: deploy });
    const question = await backend.nextPending();
    await vi.waitFor(() => expect(backend.failingGets).toBe(0));
    backend.answer(question.id, { deploy_target: ["Production"] });
    expect(textOf(await call)).toBe("answered: deploy_target = Production");
    expect(logged).toHaveLength(3);
  });

  it("cancels the question when the client cancels the call", async () => {
    const backend = new FakeBackend();
    const client = await connect(backend);
    const abort = new AbortController();
    const call = client.callTool({ name: "ask_user", arguments: deploy }, undefined, {
      signal: abort.signal,
    });
    const question = await backend.nextPending();
    abort.abort("the agent run was stopped");
    await expect(call).rejects.toThrow();
    await vi.waitFor(() => expect(backend.records.get(question.id)?.status).toBe("cancelled"));
  });

  it("cancels the question when the connection closes mid-call", async () => {
    const backend = new FakeBackend();
    const client = await connect(backend);
    const call = client.callTool({ name: "ask_user", arguments: deploy });
    const question = await backend.nextPending();
    await client.close();
    await expect(call).rejects.toThrow(/Connection closed/);
    await vi.waitFor(() => expect(backend.records.get(question.id)?.status).toBe("cancelled"));
  });
});

/** A stdio server in a child process, with a backend that answers with the first option after 100 ms. */
const STDIO_FIXTURE = `
const { runStdioServer } = await import(process.env.ASK_USER_MCP_STDIO);
const records = new Map();
const wakers = new Set();
const view = (r) => r.status === "pending" ? { ...r } : { ...r, result: r.status === "answered"
  ? { status: "answered", answers: { answers: r.answers } } : { status: "no_answer", reason: r.status } };
const end = (id, status, answers) => {
  const r = records.get(id);
  if (r.status !== "pending") return;
  Object.assign(r, { status, answers });
  for (const wake of [...wakers]) wake();
};
const backend = {
  async create(body) {
    const id = "q" + (records.size + 1), now = Date.now(), first = body.questions[0];
    records.set(id, { id, prompt: { questions: body.questions, timeoutSeconds: 60 }, createdAt: now,
      expiresAt: now + 60000, status: "pending" });
    if (first.id !== "never") setTimeout(() => end(id, "answered", { [first.id]: [first.options[0].label] }), 100);
    return view(records.get(id));
  },
  async get(id, { waitSeconds, signal } = {}) {
    if (records.get(id).status === "pending" && waitSeconds && !signal?.aborted) {
      await new Promise((resolve) => {
        const done = () => { clearTimeout(timer); wakers.delete(done); signal?.removeEventListener("abort", done); resolve(); };
        const timer = setTimeout(done, waitSeconds * 1000);
        wakers.add(done);
        signal?.addEventListener("abort", done);
      });
    }
    return view(records.get(id));
  },
  async cancel(id) {
    process.stderr.write("cancelled " + id + "\\n");
    end(id, "cancelled");
    return view(records.get(id));
  },
};
console.error("stdio server started");
const code = await runStdioServer({ backend });
process.stderr.write("exit " + code + "\\n");
`;

describe("MCP over stdio", () => {
  it("serves a real client, honours cancellation and exits 0 when stdin closes", async () => {
    const gatewayDir = fileURLToPath(new URL("..", import.meta.url));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["--import", "tsx", "--input-type=module", "--eval", STDIO_FIXTURE],
      cwd: gatewayDir,
      env: {
        ...(process.env as Record<string, string>),
        ASK_USER_MCP_STDIO: pathToFileURL(`${gatewayDir}src/mcp/stdio.ts`).href,
      },
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const client = new Client({ name: "test", version: "1.0.0" });
    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);
    await client.connect(transport);

    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["ask_user"]);
    const result = await client.callTool({ name: "ask_user", arguments: deploy });
    expect(result.structuredContent).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Staging (Recommended)"] } },
    });
    expect(textOf(result)).toBe("answered: deploy_target = Staging (Recommended)");

    const abort = new AbortController();
    const never = { questions: [{ ...deploy.questions[0], id: "never" }] };
    const cancelled = client.callTool({ name: "ask_user", arguments: never }, undefined, {
      signal: abort.signal,
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    abort.abort("stopped");
    await expect(cancelled).rejects.toThrow();
    await vi.waitFor(() => expect(stderr).toContain("cancelled q2"));

    await client.close();
    await vi.waitFor(() => expect(stderr).toContain("exit 0"));
    expect(errors).toEqual([]);
    // The logs went to stderr, not into the protocol on stdout.
    expect(stderr).toContain("stdio server started");
  }, 20_000);
});

describe("MCP over Streamable HTTP", () => {
  async function serve(options: { maxSessions?: number; idleSessionMs?: number } = {}) {
    const backend = new FakeBackend();
    const mcp = createMcpHttpHandler({ backend, logger, progressIntervalMs: 100, ...options });
    const url = await listenMcp(mcp, cleanups, (req, res) => {
      if (req.url === "/mcp") void mcp.handle(req, res);
      else res.writeHead(404).end();
    });
    const connectClient = async () => {
      const transport = new StreamableHTTPClientTransport(url);
      const client = new Client({ name: "test", version: "1.0.0" });
      await client.connect(transport);
      cleanups.push(() => client.close());
      return { client, transport };
    };
    return { backend, mcp, url, connectClient };
  }

  it("lists the tool and answers a call with progress in a session", async () => {
    const { backend, connectClient } = await serve();
    const { client, transport } = await connectClient();
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["ask_user"]);
    const seen: Progress[] = [];
    const call = client.callTool({ name: "ask_user", arguments: deploy }, undefined, {
      onprogress: (p) => seen.push(p),
    });
    const question = await backend.nextPending();
    await vi.waitFor(() => expect(seen.length).toBeGreaterThanOrEqual(2), { timeout: 5000 });
    backend.answer(question.id, { deploy_target: ["Production"] });
    const result = await call;
    expect(result.structuredContent).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"] } },
    });
    expect(textOf(result)).toBe("answered: deploy_target = Production");
  });

  it("cancels the question when the client cancels the call", async () => {
    const { backend, connectClient } = await serve();
    const { client } = await connectClient();
    const abort = new AbortController();
    const call = client.callTool({ name: "ask_user", arguments: deploy }, undefined, {
      signal: abort.signal,
    });
    const question = await backend.nextPending();
    abort.abort("stopped");
    await expect(call).rejects.toThrow();
    await vi.waitFor(() => expect(backend.records.get(question.id)?.status).toBe("cancelled"));
  });

  it("cancels the question when the response stream of a call closes before the answer", async () => {
    const { backend, url, connectClient } = await serve();
    const { transport } = await connectClient();
    const abort = new AbortController();
    const response = fetch(url, {
      method: "POST",
      signal: abort.signal,
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": transport.sessionId ?? "",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 99,
        method: "tools/call",
        params: { name: "ask_user", arguments: deploy },
      }),
    });
    response.catch(() => {}); // aborted on purpose
    const question = await backend.nextPending();
    abort.abort();
    await vi.waitFor(() => expect(backend.records.get(question.id)?.status).toBe("cancelled"));
  });

  it("ends a session on DELETE and refuses its id afterwards", async () => {
    const { url, connectClient } = await serve();
    const { transport } = await connectClient();
    const sessionId = transport.sessionId ?? "";
    await transport.terminateSession();
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": sessionId,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(response.status).toBe(404);
  });

  it("refuses requests without a session unless they initialize one", async () => {
    const { url } = await serve();
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
      /initialize first/,
    );
  });

  it("keeps at most maxSessions sessions, closing the least recently used", async () => {
    const { connectClient } = await serve({ maxSessions: 2 });
    const first = await connectClient();
    const second = await connectClient();
    await first.client.listTools(); // the second session is now the least recently used
    await connectClient();
    await expect(second.client.listTools()).rejects.toThrow(/404|Session not found/);
    expect((await first.client.listTools()).tools).toHaveLength(1);
  });

  it("never evicts a session whose call is waiting for a human; refuses a new session instead", async () => {
    const { backend, url, connectClient } = await serve({ maxSessions: 2 });
    const first = await connectClient();
    const firstCall = first.client.callTool({ name: "ask_user", arguments: deploy });
    const firstQuestion = await backend.nextPending();
    const idle = await connectClient();
    await idle.client.listTools(); // the waiting session is now the least recently used
    const second = await connectClient(); // room is made by closing the idle session, not the waiting one
    await expect(idle.client.listTools()).rejects.toThrow(/404|Session not found/);
    const secondCall = second.client.callTool({ name: "ask_user", arguments: deploy });
    const secondQuestion = await vi.waitFor(() => {
      const found = [...backend.records.values()].find((r) => r.id !== firstQuestion.id);
      if (!found) throw new Error("no second question yet");
      return found;
    });
    const refused = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } },
      }),
    });
    expect(refused.status).toBe(503);
    expect(backend.records.get(firstQuestion.id)?.status).toBe("pending");
    backend.answer(firstQuestion.id, { deploy_target: ["Production"] });
    backend.answer(secondQuestion.id, { deploy_target: ["Production"] });
    expect((await firstCall).structuredContent).toMatchObject({ status: "answered" });
    expect((await secondCall).structuredContent).toMatchObject({ status: "answered" });
  });

  it("closes a session that stayed idle for idleSessionMs", async () => {
    const { connectClient } = await serve({ idleSessionMs: 150 });
    const idle = await connectClient();
    await new Promise((resolve) => setTimeout(resolve, 600));
    await expect(idle.client.listTools()).rejects.toThrow(/404|Session not found/);
  });

  it("cancels waiting questions when the handler closes", async () => {
    const { backend, mcp, connectClient } = await serve();
    const { client } = await connectClient();
    const call = client.callTool({ name: "ask_user", arguments: deploy });
    call.catch(() => {}); // the session goes away under it
    const question = await backend.nextPending();
    await mcp.close();
    expect(backend.records.get(question.id)?.status).toBe("cancelled");
  });
});
