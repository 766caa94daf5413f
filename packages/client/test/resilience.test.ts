import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createAskUserClient, GatewayUnavailableError } from "../src/index.ts";
import { deployInput, gatewayProcess, inProcessGateway, kill9, tempDir, until } from "./gateways.ts";
import { tcpProxy } from "./proxy.ts";

const retry = { initialDelayMs: 50, maxDelayMs: 500, maxOutageMs: 30_000 };

describe("wait rides out failures", () => {
  it("resumes across a kill -9 and restart of the gateway and returns the answer given afterwards", async () => {
    const db = join(tempDir(), "ask-user.db");
    const first = await gatewayProcess({ ASK_USER_DB: db });
    const client = createAskUserClient({ url: first.url, retry, waitSliceSeconds: 5 });
    const question = await client.create(deployInput);

    let settled = false;
    const waiting = client.wait(question.id).finally(() => {
      settled = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 300)); // the long-poll is in flight
    await kill9(first.child);
    await new Promise((resolve) => setTimeout(resolve, 500)); // retries meet a closed port
    expect(settled).toBe(false);

    const port = new URL(first.url).port;
    const second = await gatewayProcess({ ASK_USER_DB: db, ASK_USER_PORT: port });
    expect(second.url).toBe(first.url);
    const person = createAskUserClient({ url: second.url, name: "alice" });
    await person.answer(question.id, { deploy_target: ["Production"] });

    const ended = await waiting;
    expect(ended.status).toBe("answered");
    expect(ended.result).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"] } },
    });
  }, 60_000);

  it("resumes after the network drops the long-poll and refuses connections for a while", async () => {
    const gateway = await inProcessGateway();
    const proxy = await tcpProxy(gateway.url);
    const client = createAskUserClient({ url: proxy.url, retry, waitSliceSeconds: 5 });
    const question = await client.create(deployInput);

    const waiting = client.wait(question.id);
    await until(() => (proxy.open > 0 ? true : undefined));
    proxy.down(true);
    proxy.cut();
    await new Promise((resolve) => setTimeout(resolve, 400));
    await gateway.broker.answer(
      question.id,
      { deploy_target: ["Staging"] },
      { channel: "http", userId: "bob" },
    );
    proxy.down(false);

    expect((await waiting).result).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Staging (Recommended)"] } },
    });
  });

  it("gives up with GatewayUnavailableError once the outage outlasts maxOutageMs", async () => {
    const gateway = await inProcessGateway();
    const proxy = await tcpProxy(gateway.url);
    const client = createAskUserClient({
      url: proxy.url,
      retry: { initialDelayMs: 20, maxDelayMs: 100, maxOutageMs: 600 },
    });
    const question = await client.create(deployInput);
    proxy.down(true);
    proxy.cut();

    const started = Date.now();
    const error = await client.wait(question.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayUnavailableError);
    expect(error).toMatchObject({ status: 0, reason: "network" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(600);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("ask still cancels when aborted while the gateway is briefly unreachable", async () => {
    const gateway = await inProcessGateway();
    const proxy = await tcpProxy(gateway.url);
    const client = createAskUserClient({ url: proxy.url, retry });
    const run = new AbortController();
    const asking = client.ask(deployInput, { signal: run.signal });
    const pending = await until(async () => (await gateway.broker.list({ status: "pending" }))[0]);
    await new Promise((resolve) => setTimeout(resolve, 300)); // create answered; the long-poll is in flight

    proxy.down(true);
    proxy.cut();
    run.abort();
    setTimeout(() => proxy.down(false), 300);

    expect(await asking).toEqual({ status: "no_answer", reason: "cancelled" });
    expect((await gateway.broker.get(pending.id))?.status).toBe("cancelled");
  });

  it("tells onRetry about each failed attempt and onReconnect once the gateway answers again", async () => {
    const gateway = await inProcessGateway();
    const proxy = await tcpProxy(gateway.url);
    const client = createAskUserClient({ url: proxy.url, retry, waitSliceSeconds: 5 });
    const question = await client.create(deployInput);
    const retries: Array<{ attempt: number; delayMs: number; reason: string }> = [];
    const reconnects: Array<{ attempts: number; outageMs: number }> = [];

    const waiting = client.wait(question.id, {
      onRetry: ({ attempt, delayMs, error }) => retries.push({ attempt, delayMs, reason: error.reason }),
      onReconnect: (event) => reconnects.push(event),
    });
    await until(() => (proxy.open > 0 ? true : undefined));
    proxy.down(true);
    proxy.cut();
    await until(() => (retries.length >= 3 ? true : undefined));
    expect(reconnects).toEqual([]);
    proxy.down(false);
    await until(() => (reconnects.length > 0 ? true : undefined));
    await gateway.broker.answer(
      question.id,
      { deploy_target: ["Staging"] },
      { channel: "http", userId: "bob" },
    );

    expect((await waiting).status).toBe("answered");
    expect(retries.slice(0, 3).map((r) => r.attempt)).toEqual([1, 2, 3]);
    expect(retries.every((r) => r.delayMs > 0 && r.delayMs <= retry.maxDelayMs)).toBe(true);
    // The proxy resets connections, as a dropped link does.
    expect(new Set(retries.map((r) => r.reason))).toEqual(new Set(["network"]));
    expect(reconnects).toHaveLength(1);
    expect(reconnects[0]?.attempts).toBe(retries.length);
    expect(reconnects[0]?.outageMs).toBeGreaterThan(0);
  });

  it("gives up at retry.giveUpAt even when the outage is shorter than maxOutageMs", async () => {
    const gateway = await inProcessGateway();
    const proxy = await tcpProxy(gateway.url);
    const client = createAskUserClient({ url: proxy.url });
    const question = await client.create(deployInput);
    proxy.down(true);
    proxy.cut();

    const started = Date.now();
    const giveUpAt = started + 700;
    const error = await client
      .wait(question.id, { retry: { initialDelayMs: 20, maxDelayMs: 100, maxOutageMs: 60_000, giveUpAt } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayUnavailableError);
    expect(Date.now()).toBeGreaterThanOrEqual(giveUpAt);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
