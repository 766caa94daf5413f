import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { AskUserBroker, AskUserEvent, QuestionRecord } from "@ask-user/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { waitWhilePending } from "../src/wait.ts";
import { call, deployInput, testGateway } from "./harness.ts";

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A text webhook that holds every delivery open until `release()`: a slow chat bridge. */
async function slowWebhook() {
  const held: ServerResponse[] = [];
  let arrived = 0;
  const server = createServer((req: IncomingMessage, res) => {
    req.resume();
    req.on("end", () => {
      arrived++;
      held.push(res);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrived: () => arrived,
    release() {
      for (const res of held.splice(0)) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ messageId: `m${arrived}` }));
      }
    },
  };
}

describe("aborting while the prompt is still being delivered", () => {
  it("cancels the question at once when POST /v1/ask is closed mid-delivery", async () => {
    const hook = await slowWebhook();
    const gw = await testGateway({ ASK_USER_TEXT_WEBHOOK_URL: hook.url });
    for (let round = 1; round <= 3; round++) {
      const abort = new AbortController();
      const asked = fetch(`${gw.url}/v1/ask`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ ...deployInput, target: "text:alice" }),
        signal: abort.signal,
      });
      asked.catch(() => undefined); // aborted on purpose
      await vi.waitFor(() => expect(hook.arrived()).toBe(round));
      abort.abort();
      // Cancelled while the webhook still holds the delivery open.
      await vi.waitFor(async () => {
        const list = await call(`${gw.url}/v1/questions?status=cancelled`, "GET");
        expect(list.body.questions).toHaveLength(round);
      });
    }
    hook.release();
    const pending = await call(`${gw.url}/v1/questions?status=pending`, "GET");
    expect(pending.body.questions).toEqual([]);
  });
});

describe("long-poll", () => {
  it("sees a resolution that happens between its read and its wait", async () => {
    const pending = { id: "q1", status: "pending" } as QuestionRecord;
    const answered = { id: "q1", status: "answered" } as QuestionRecord;
    const listeners = new Set<(event: AskUserEvent) => void>();
    let reads = 0;
    const broker = {
      subscribe(listener: (event: AskUserEvent) => void) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      async get() {
        reads++;
        if (reads > 1) return answered;
        // The answer lands right after this read, before the caller could wait.
        queueMicrotask(() => {
          for (const listener of listeners) listener({ type: "question.resolved", record: answered });
        });
        return pending;
      },
    } as unknown as AskUserBroker;
    const started = Date.now();
    const record = await waitWhilePending(broker, "q1", 5_000);
    expect(record?.status).toBe("answered");
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
