import { Agent, request } from "node:http";
import { describe, expect, it } from "vitest";
import { call, deployInput, testGateway } from "./harness.ts";

const SESSIONS = 300;
const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });

/** One POST to /mcp; resolves with the status, the session header and the whole body (JSON or SSE). */
function post(url: URL, body: unknown, sessionId?: string) {
  return new Promise<{ status: number; sessionId: string | undefined; text: string }>((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        agent,
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...(sessionId ? { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" } : {}),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () => {
          const header = res.headers["mcp-session-id"];
          resolve({
            status: res.statusCode ?? 0,
            sessionId: Array.isArray(header) ? header[0] : header,
            text,
          });
        });
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

/** An MCP agent over raw HTTP: initialize, initialized, then one ask_user call held open until its result. */
async function agentAsks(url: URL, index: number): Promise<unknown> {
  const init = await post(url, {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: `agent-${index}`, version: "1" },
    },
  });
  expect(init.status).toBe(200);
  const sessionId = init.sessionId;
  await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, sessionId);
  const reply = await post(
    url,
    {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "ask_user", arguments: { ...deployInput, runId: `agent-${index}` } },
    },
    sessionId,
  );
  const data = reply.text
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice(6)) as { id?: number; result?: { structuredContent?: unknown } });
  return data.find((message) => message.id === 1)?.result?.structuredContent;
}

describe("many MCP agents waiting at once", () => {
  it(`${SESSIONS} sessions, each with ask_user in flight, each gets its own answer`, async () => {
    const gw = await testGateway();
    const url = new URL(`${gw.url}/mcp`);
    const results = Array.from({ length: SESSIONS }, (_, index) => agentAsks(url, index));
    let pending: Array<{ id: string; runId: string }> = [];
    for (let i = 0; i < 600 && pending.length < SESSIONS; i++) {
      pending = (await call(`${gw.url}/v1/questions?status=pending&limit=500`, "GET")).body.questions;
      if (pending.length < SESSIONS) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(pending).toHaveLength(SESSIONS); // more than the old cap of 100 wait at once
    for (const question of pending) {
      const label =
        Number(question.runId.slice("agent-".length)) % 2 === 0 ? "Production" : "Staging (Recommended)";
      const answered = await call(`${gw.url}/v1/questions/${question.id}/answer`, "POST", {
        answers: { deploy_target: [label] },
      });
      expect(answered.status).toBe(200);
    }
    const got = await Promise.all(results);
    got.forEach((result, index) => {
      const label = index % 2 === 0 ? "Production" : "Staging (Recommended)";
      expect(result).toEqual({ status: "answered", answers: { answers: { deploy_target: [label] } } });
    });
    agent.destroy();
  }, 60_000);
});
