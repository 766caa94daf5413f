import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { CallToolResultSchema, CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { FakeBackend } from "../src/mcp/fake-backend.ts";
import { createMcpHttpHandler, createMcpServer } from "../src/mcp/index.ts";
import { call, deployInput, testGateway } from "./harness.ts";

const silent = { warn: () => {}, error: () => {} };
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const deploy = { ...deployInput, target: "telegram:42" };

/** An HTTP server with the MCP handler over `backend`; `stop()` closes it like a gateway shutting down. */
async function serveHttp(backend: FakeBackend) {
  const mcp = createMcpHttpHandler({ backend, logger: silent, taskPollIntervalMs: 50 });
  const http: HttpServer = createServer((req, res) => void mcp.handle(req, res));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const url = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
  const stop = async () => {
    await mcp.close();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  };
  cleanups.push(async () => {
    if (http.listening) await stop();
  });
  return { url, stop };
}

async function httpClient(url: URL, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "tasks-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  cleanups.push(() => client.close());
  return client;
}

async function inMemoryClient(backend: FakeBackend): Promise<Client> {
  const server = createMcpServer({ backend, logger: silent, taskPollIntervalMs: 50 });
  const client = new Client({ name: "tasks-test", version: "1.0.0" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  cleanups.push(async () => {
    await client.close();
    await server.close();
  });
  return client;
}

/** A task-augmented `tools/call`: the server answers with the task at once. */
async function createTask(client: Client, args: Record<string, unknown> = deploy) {
  const { task } = await client.request(
    { method: "tools/call", params: { name: "ask_user", arguments: args, task: { ttl: 60_000 } } },
    CreateTaskResultSchema,
  );
  return task;
}

describe.each([
  ["Streamable HTTP", "http"],
  ["the SDK server (stdio's)", "sdk"],
] as const)("MCP tasks over %s", (_name, kind) => {
  const connect = async (backend: FakeBackend) =>
    kind === "http" ? httpClient((await serveHttp(backend)).url) : inMemoryClient(backend);

  it("offers tasks for tools/call and answers a task-augmented call with the question as a working task", async () => {
    const backend = new FakeBackend();
    const client = await connect(backend);
    expect(client.getServerCapabilities()?.tasks).toEqual({
      list: {},
      cancel: {},
      requests: { tools: { call: {} } },
    });
    const task = await createTask(client);
    const question = await backend.nextPending();
    expect(task).toMatchObject({ taskId: question.id, status: "working", pollInterval: 50, ttl: null });
    expect(task.statusMessage).toMatch(/^waiting for an answer on Telegram, (1[45] min|\d:\d\d) left$/);
    expect(backend.bodies).toHaveLength(1);
  });

  it("callToolStream: polls the task and gets the same result a plain call gets", async () => {
    const backend = new FakeBackend();
    const client = await connect(backend);
    await client.listTools(); // the client learns that ask_user may run as a task
    const seen: string[] = [];
    const stream = client.experimental.tasks.callToolStream(
      { name: "ask_user", arguments: deploy },
      CallToolResultSchema,
      { task: { ttl: 60_000 } },
    );
    const answered = (async () => {
      const question = await backend.nextPending();
      backend.answer(question.id, { deploy_target: ["Production"] });
    })();
    let result: unknown;
    for await (const message of stream) {
      seen.push(message.type);
      if (message.type === "result") result = message.result;
      if (message.type === "error") throw message.error;
    }
    await answered;
    expect(seen[0]).toBe("taskCreated");
    expect(seen.at(-1)).toBe("result");
    expect(result).toMatchObject({
      content: [{ type: "text", text: "answered: deploy_target = Production" }],
      structuredContent: { status: "answered", answers: { answers: { deploy_target: ["Production"] } } },
    });
  });

  it("tasks/cancel cancels the question; tasks/list lists it; an unknown task is an error", async () => {
    const backend = new FakeBackend();
    const client = await connect(backend);
    const task = await createTask(client);
    const listed = await client.experimental.tasks.listTasks();
    expect(listed.tasks.map((t) => t.taskId)).toEqual([task.taskId]);
    const cancelled = await client.experimental.tasks.cancelTask(task.taskId);
    expect(cancelled).toMatchObject({ taskId: task.taskId, status: "cancelled" });
    expect(backend.records.get(task.taskId)?.status).toBe("cancelled");
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.structuredContent).toEqual({ status: "no_answer", reason: "cancelled" });
    await expect(client.experimental.tasks.getTask("nope")).rejects.toThrow(/not found/i);
    await expect(client.experimental.tasks.cancelTask(task.taskId)).rejects.toThrow(/terminal status/);
  });

  it("refuses bad input of a task-augmented call with every problem, and creates nothing", async () => {
    const backend = new FakeBackend();
    const client = await connect(backend);
    const bad = { questions: [{ ...deployInput.questions[0], id: "Deploy" }], colour: "red" };
    const error = await createTask(client, bad).catch((e: Error) => e);
    expect(String(error)).toContain('- colour: Unknown field "colour"');
    expect(String(error)).toContain("- questions[0].id: ");
    expect(String(error)).not.toMatch(/MCP error -32602: MCP error/);
    expect(backend.records.size).toBe(0);
  });
});

describe("a task outlives its session and the MCP endpoint", () => {
  it("another session — after the endpoint was closed and opened again — reads the task and gets its result", async () => {
    const backend = new FakeBackend();
    const first = await serveHttp(backend);
    const task = await createTask(await httpClient(first.url));
    await first.stop(); // a task is not a call in flight: closing the endpoint does not cancel it
    expect(backend.records.get(task.taskId)?.status).toBe("pending");

    const second = await serveHttp(backend);
    const client = await httpClient(second.url);
    expect(await client.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: "working" });
    const result = client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    backend.answer(task.taskId, { deploy_target: ["Staging (Recommended)"] });
    expect((await result).structuredContent).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Staging (Recommended)"] } },
    });
    expect((await client.experimental.tasks.getTask(task.taskId)).status).toBe("completed");
  });

  it("a real gateway restarted on the same database: tasks/get and tasks/result still work", async () => {
    const token = "mcp-task-token-0123456789";
    const auth = { authorization: `Bearer ${token}` };
    const env = { ASK_USER_TOKEN: token };
    const first = await testGateway(env);
    const db = first.config.dbPath;
    expect(db).toMatch(/ask-user\.db$/);
    const task = await createTask(await httpClient(new URL(`${first.url}/mcp`), auth), deployInput);
    await first.close();

    const second = await testGateway({ ...env, ASK_USER_DB: db });
    const client = await httpClient(new URL(`${second.url}/mcp`), auth);
    const working = await client.experimental.tasks.getTask(task.taskId);
    expect(working).toMatchObject({ taskId: task.taskId, status: "working" });
    expect(working.statusMessage).toMatch(/^waiting for an answer in the web panel, \d+ min left$/);
    const answer = { answers: { deploy_target: ["Production"] } };
    expect(
      (await call(`${second.url}/v1/questions/${task.taskId}/answer`, "POST", answer, auth)).status,
    ).toBe(200);
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.structuredContent).toEqual({ status: "answered", answers: answer });
  }, 30_000);

  it("stdio (`ask-user mcp`): a task created by one process is read and fetched by the next one", async () => {
    const gw = await testGateway();
    const bin = fileURLToPath(new URL("../bin/ask-user.js", import.meta.url));
    const stdioClient = async () => {
      const client = new Client({ name: "tasks-stdio", version: "1.0.0" });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [bin, "mcp"],
          env: { ...(process.env as Record<string, string>), ASK_USER_URL: gw.url },
          stderr: "pipe",
        }),
      );
      return client;
    };
    const first = await stdioClient();
    const task = await createTask(first, deployInput);
    await first.close(); // the stdio process ends; its task is the gateway's question
    const second = await stdioClient();
    cleanups.push(() => second.close());
    expect(await second.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: "working" });
    await call(`${gw.url}/v1/questions/${task.taskId}/skip`, "POST", {});
    const result = await second.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.structuredContent).toEqual({ status: "no_answer", reason: "skipped" });
    expect(await second.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: "completed" });
  }, 40_000);
});
