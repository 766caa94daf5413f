import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { call, deployInput, testGateway } from "./harness.ts";

const bin = fileURLToPath(new URL("../bin/ask-user.js", import.meta.url));
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

/** The official MCP client over stdio, talking to `ask-user mcp` (a real child process) for this gateway. */
async function stdioClient(gatewayUrl: string): Promise<Client> {
  const client = new Client({ name: "e2e", version: "1.0.0" });
  clients.push(client);
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [bin, "mcp"],
      env: { ...(process.env as Record<string, string>), ASK_USER_URL: gatewayUrl },
      stderr: "pipe",
    }),
  );
  return client;
}

async function pendingQuestion(url: string, headers: Record<string, string> = {}): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const { body } = await call(`${url}/v1/questions?status=pending`, "GET", undefined, headers);
    if (body.questions.length > 0) return body.questions[0].id as string;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("no pending question appeared");
}

describe("MCP against a real gateway", () => {
  it("stdio (`ask-user mcp`): lists ask_user, asks, gets the answer given over HTTP as structuredContent", async () => {
    const gw = await testGateway();
    const client = await stdioClient(gw.url);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["ask_user"]);
    expect(tools[0]?.inputSchema.properties).toHaveProperty("target");

    const result = client.callTool({ name: "ask_user", arguments: deployInput }, CallToolResultSchema, {
      timeout: 30_000,
    });
    const id = await pendingQuestion(gw.url);
    await call(`${gw.url}/v1/questions/${id}/answer`, "POST", { answers: { deploy_target: ["Production"] } });
    const done = await result;
    expect(done.structuredContent).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"] } },
    });
    expect(done.isError).toBeFalsy();
    expect(JSON.stringify(done.content)).toContain("deploy_target = Production");
  }, 40_000);

  it("stdio: cancelling the tool call cancels the question", async () => {
    const gw = await testGateway();
    const client = await stdioClient(gw.url);
    const abort = new AbortController();
    const result = client
      .callTool({ name: "ask_user", arguments: deployInput }, CallToolResultSchema, {
        signal: abort.signal,
        timeout: 30_000,
      })
      .catch((error: unknown) => error);
    const id = await pendingQuestion(gw.url);
    abort.abort();
    await result;
    let status = "pending";
    for (let i = 0; i < 200 && status === "pending"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      status = (await call(`${gw.url}/v1/questions/${id}`, "GET")).body.status;
    }
    expect(status).toBe("cancelled");
  }, 40_000);

  it("Streamable HTTP at /mcp with the bearer token", async () => {
    const token = "mcp-token-0123456789abcdef";
    const gw = await testGateway({ ASK_USER_TOKEN: token });
    const auth = { authorization: `Bearer ${token}` };
    const client = new Client({ name: "e2e-http", version: "1.0.0" });
    clients.push(client);
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`), { requestInit: { headers: auth } }),
    );
    const result = client.callTool({ name: "ask_user", arguments: deployInput }, CallToolResultSchema, {
      timeout: 30_000,
    });
    const id = await pendingQuestion(gw.url, auth);
    await call(`${gw.url}/v1/questions/${id}/skip`, "POST", {}, auth);
    expect((await result).structuredContent).toEqual({ status: "no_answer", reason: "skipped" });

    const stranger = new Client({ name: "no-token", version: "1.0.0" });
    await expect(
      stranger.connect(new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`))),
    ).rejects.toThrow();
  }, 40_000);
});
