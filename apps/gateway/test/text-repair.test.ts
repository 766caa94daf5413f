import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { gatewayProcesses } from "./gateway-process.ts";
import { call, deployInput, tempDir } from "./harness.ts";

const { start: startChild, kill9 } = gatewayProcesses();
const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** The user's chat bridge: records every message, and can hold requests open (a platform hanging). */
async function bridge() {
  const received: Array<{ conversation: string; text: string; replyTo?: string }> = [];
  const held: Array<() => void> = [];
  let hold = false;
  const server = createServer((req, res: ServerResponse) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      const message = JSON.parse(body);
      const answer = () => {
        received.push(message);
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ messageId: `m${received.length}` }));
      };
      if (hold) held.push(answer);
      else answer();
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    held: () => held.length,
    setHold(on: boolean) {
      hold = on;
    },
  };
}

describe("repair after a crash, on the text channel", () => {
  it("delivers a prompt whose delivery was cut off by kill -9, once, after the restart", async () => {
    const chat = await bridge();
    const env = { ASK_USER_DB: join(tempDir(), "gw.db"), ASK_USER_TEXT_WEBHOOK_URL: chat.url };
    const first = await startChild(env);
    chat.setHold(true);
    const asked = call(`${first.url}/v1/questions`, "POST", { ...deployInput, target: "text:alice" });
    asked.catch(() => undefined); // the process dies under it
    await vi.waitFor(() => expect(chat.held()).toBe(1));
    await kill9(first.child);
    chat.setHold(false);
    const second = await startChild(env);
    await vi.waitFor(() => expect(chat.received).toHaveLength(1), { timeout: 10_000 });
    expect(chat.received[0]?.text).toContain("Where should I deploy?");
    // The message is out; the delivery is recorded when the webhook's answer is back, a moment later.
    const question = await vi.waitFor(async () => {
      const [pending] = (await call(`${second.url}/v1/questions?status=pending`, "GET")).body.questions;
      expect(pending.deliveries).toEqual([expect.objectContaining({ messageId: "m1", kind: "prompt" })]);
      return pending;
    });
    const reply = await call(`${second.url}/v1/channels/text/inbound`, "POST", {
      conversation: "alice",
      userId: "alice",
      text: "2",
      replyTo: "m1",
    });
    expect(reply.body).toMatchObject({ outcome: "answered", questionId: question.id });
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // a second sweep finds nothing to do
    expect(chat.received.filter((m) => m.text.includes("Where should I deploy?"))).toHaveLength(1);
  }, 60_000);
});
