import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createAskUserClient, type GatewayEvent } from "../src/index.ts";
import { deployInput, gatewayProcess, inProcessGateway, kill9, tempDir } from "./gateways.ts";
import { tcpProxy } from "./proxy.ts";

const retry = { initialDelayMs: 50, maxDelayMs: 300, maxOutageMs: 30_000 };

/** Reads events into `seen` in the background until the controller aborts. */
function collect(events: AsyncIterableIterator<GatewayEvent>) {
  const seen: GatewayEvent[] = [];
  const done = (async () => {
    for await (const event of events) seen.push(event);
  })();
  return { seen, done };
}

async function waitFor(check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const label = (event: GatewayEvent) =>
  event.type === "reset" ? "reset" : `${event.type} ${event.question.status}`;

describe("events()", () => {
  it("yields each question's events as they happen and stops quietly when aborted", async () => {
    const gateway = await inProcessGateway();
    const client = createAskUserClient({ url: gateway.url });
    const stop = new AbortController();
    const { seen, done } = collect(client.events({ signal: stop.signal }));
    await new Promise((resolve) => setTimeout(resolve, 200)); // connected

    const question = await client.create(deployInput);
    await client.answer(question.id, { deploy_target: ["Production"] });
    await waitFor(() => seen.some((event) => event.type === "question.resolved"));
    stop.abort();
    await done;

    expect(seen.map(label)).toEqual(["question.requested pending", "question.resolved answered"]);
    const ids = seen.map((event) => (event.type === "reset" ? "" : event.id));
    expect(new Set(ids).size).toBe(2);
  });

  it("after a network drop it reconnects with Last-Event-ID and delivers what it missed, once", async () => {
    const gateway = await inProcessGateway();
    const proxy = await tcpProxy(gateway.url);
    const client = createAskUserClient({ url: proxy.url, retry });
    const stop = new AbortController();
    const { seen, done } = collect(client.events({ signal: stop.signal }));
    await new Promise((resolve) => setTimeout(resolve, 200));

    const first = await client.create(deployInput);
    await waitFor(() => seen.length === 1);
    proxy.down(true);
    proxy.cut();
    // While the stream is down: these must arrive after the reconnect, in order.
    await gateway.broker.answer(first.id, { deploy_target: ["Staging"] }, { channel: "http", userId: "bob" });
    const second = await gateway.broker.create(deployInput);
    await new Promise((resolve) => setTimeout(resolve, 300));
    proxy.down(false);
    await waitFor(() => seen.length >= 3);
    await new Promise((resolve) => setTimeout(resolve, 300)); // nothing more (no duplicates)
    stop.abort();
    await done;

    expect(seen.map(label)).toEqual([
      "question.requested pending",
      "question.resolved answered",
      "question.requested pending",
    ]);
    expect(seen[2]?.type !== "reset" && seen[2]?.question.id).toBe(second.id);
  });

  it("resuming an id from before a gateway restart yields reset, then new events", async () => {
    const db = join(tempDir(), "ask-user.db");
    const first = await gatewayProcess({ ASK_USER_DB: db });
    const client = createAskUserClient({ url: first.url, retry });
    const stop = new AbortController();
    const { seen, done } = collect(client.events({ signal: stop.signal }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await client.create(deployInput);
    await waitFor(() => seen.length === 1);

    await kill9(first.child);
    const second = await gatewayProcess({ ASK_USER_DB: db, ASK_USER_PORT: new URL(first.url).port });
    await waitFor(() => seen.length === 2);
    await client.create(deployInput);
    await waitFor(() => seen.length === 3);
    stop.abort();
    await done;

    expect(seen.map(label)).toEqual(["question.requested pending", "reset", "question.requested pending"]);
    expect(second.url).toBe(first.url);
  }, 60_000);

  it("a wrong token throws instead of retrying", async () => {
    const gateway = await inProcessGateway({ ASK_USER_TOKEN: "a-token-of-enough-length" });
    const client = createAskUserClient({ url: gateway.url, token: "wrong-token-wrong-token", retry });
    await expect(collect(client.events()).done).rejects.toMatchObject({
      status: 401,
      reason: "unauthorized",
    });
  });
});
