/** The fake Slack with several app instances: Socket Mode connections, a load balancer, lost acks, held calls. */
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { FakeSlack } from "../src/slack/index.ts";
import { api, appEndpoints, fakeSlack } from "./slack-harness.ts";

const C = "C0GENERAL";
const ALICE = { id: "U0ALICE", name: "alice" };

/** One raw Socket Mode connection: the envelopes it got; acks them unless `ack` says no. */
async function connect(slack: FakeSlack, ack: (envelope: Record<string, unknown>) => boolean = () => true) {
  const opened = await api(slack, "apps.connections.open", {}, slack.appToken);
  const ws = new WebSocket(String(opened.body.url));
  const envelopes: Array<Record<string, unknown>> = [];
  const control: Array<Record<string, unknown>> = [];
  ws.on("message", (data) => {
    const message = JSON.parse(String(data)) as Record<string, unknown>;
    if (typeof message.envelope_id !== "string") {
      control.push(message);
      return;
    }
    envelopes.push(message);
    if (ack(message)) ws.send(JSON.stringify({ envelope_id: message.envelope_id }));
  });
  await new Promise<void>((resolve) => ws.once("open", () => resolve()));
  await slack.waitUntil(() => control.find((m) => m.type === "hello"));
  return { ws, envelopes, control };
}

const eventIdOf = (envelope: Record<string, unknown> | undefined) =>
  (envelope?.payload as { event_id?: string } | undefined)?.event_id;

describe("fake Slack Socket Mode with several connections on one app token", () => {
  it("hands each envelope to one connection only, spreading them over all", async () => {
    const slack = await fakeSlack({ echoBotMessages: false });
    const a = await connect(slack);
    const b = await connect(slack);
    expect(slack.socketConnections()).toBe(2);
    const alice = slack.user(ALICE);
    for (let i = 0; i < 6; i++) await alice.say(C, `message ${i}`);
    expect(a.envelopes.length + b.envelopes.length).toBe(6);
    expect(a.envelopes.length).toBeGreaterThan(0);
    expect(b.envelopes.length).toBeGreaterThan(0);
    const ids = [...a.envelopes, ...b.envelopes].map(eventIdOf);
    expect(new Set(ids).size).toBe(6);
    expect(new Set(slack.deliveries.map((d) => d.connection))).toEqual(new Set([1, 2]));
    a.ws.close();
    b.ws.close();
    await slack.waitUntil(() => slack.socketConnections() === 0);
  });

  it("redelivers an event not acked in 3 s on another connection, with retry_attempt 1", async () => {
    const slack = await fakeSlack({ echoBotMessages: false, eventRetryDelaysMs: [0] });
    const silent = await connect(slack, () => false);
    const other = await connect(slack);
    const alice = slack.user(ALICE);
    // Whichever connection the first attempt goes to: the silent one never acks.
    for (let i = 0; i < 2 && silent.envelopes.length === 0; i++) {
      alice.say(C, `try ${i}`).catch(() => undefined);
      await slack.waitUntil(() => silent.envelopes.length + other.envelopes.length > i);
    }
    const first = silent.envelopes[0];
    expect(first).toBeDefined();
    const retry = await slack.waitUntil(
      () => other.envelopes.find((e) => eventIdOf(e) === eventIdOf(first) && e.retry_attempt === 1),
      5000,
    );
    expect(retry).toMatchObject({ retry_attempt: 1, retry_reason: "timeout" });
    expect(silent.envelopes.filter((e) => eventIdOf(e) === eventIdOf(first))).toHaveLength(1);
    silent.ws.close();
    other.ws.close();
  }, 10_000);

  it("a lost ack makes the event come again on the other connection at once", async () => {
    const slack = await fakeSlack({ echoBotMessages: false, eventRetryDelaysMs: [0] });
    const a = await connect(slack);
    const b = await connect(slack);
    slack.loseNextAck();
    const sent = await slack.user(ALICE).say(C, "hi");
    expect(sent.delivery).toMatchObject({ status: 200, lost: true });
    const retry = await slack.waitUntil(() => slack.deliveries.find((d) => d.retryNum === 1));
    expect(retry.connection).not.toBe(sent.delivery.connection);
    expect(retry).toMatchObject({ status: 200, retryReason: "timeout" });
    expect([...a.envelopes, ...b.envelopes].map(eventIdOf)).toEqual([
      eventIdOf({ payload: sent.delivery.request }),
      eventIdOf({ payload: sent.delivery.request }),
    ]);
    expect(slack.deliveries).toHaveLength(2); // acked the second time: no third
    a.ws.close();
    b.ws.close();
  });

  it("sends nothing new to a connection told to disconnect while another one is open", async () => {
    const slack = await fakeSlack({ echoBotMessages: false });
    const old = await connect(slack);
    slack.disconnectSockets("refresh_requested");
    await slack.waitUntil(() => old.control.find((m) => m.type === "disconnect"));
    const fresh = await connect(slack);
    const alice = slack.user(ALICE);
    for (let i = 0; i < 4; i++) await alice.say(C, `message ${i}`);
    expect(old.envelopes).toHaveLength(0);
    expect(fresh.envelopes).toHaveLength(4);
    old.ws.close();
    fresh.ws.close();
  });

  it("an envelope in flight on a connection that closes is redelivered on another at once", async () => {
    const slack = await fakeSlack({ echoBotMessages: false, eventRetryDelaysMs: [0] });
    const dying = await connect(slack, () => false);
    const other = await connect(slack);
    const alice = slack.user(ALICE);
    let said: ReturnType<typeof alice.say> | undefined;
    for (let i = 0; i < 2 && dying.envelopes.length === 0; i++) {
      said = alice.say(C, `try ${i}`);
      await slack.waitUntil(() => dying.envelopes.length + other.envelopes.length > i);
    }
    const started = Date.now();
    dying.ws.terminate();
    expect((await said)?.delivery.error).toBeDefined();
    await slack.waitUntil(() =>
      other.envelopes.find((e) => eventIdOf(e) === eventIdOf(dying.envelopes[0]) && e.retry_attempt === 1),
    );
    expect(Date.now() - started).toBeLessThan(1000);
    other.ws.close();
  });
});

describe("fake Slack HTTP mode behind a load balancer", () => {
  it("hands each request to the next instance in turn, and a redelivery to another one", async () => {
    const slack = await fakeSlack({ echoBotMessages: false, eventRetryDelaysMs: [0] });
    const [a = [], b = []] = await appEndpoints(slack, 2);
    const alice = slack.user(ALICE);
    await alice.say(C, "one");
    await alice.say(C, "two");
    expect([a.length, b.length]).toEqual([1, 1]);

    slack.loseNextAck();
    const sent = await alice.say(C, "three");
    expect(sent.delivery).toMatchObject({ status: 200, lost: true });
    const retry = await slack.waitUntil(() => slack.deliveries.find((d) => d.retryNum === 1));
    expect(retry.url).not.toBe(sent.delivery.url);
    const all = [...a, ...b].map((r) => r.headers);
    expect(all.filter((h) => h["x-slack-retry-num"] === "1")).toEqual([
      expect.objectContaining({ "x-slack-retry-reason": "http_timeout" }),
    ]);
    expect(a.length + b.length).toBe(4);
  });
});

describe("fake Slack holding Web API calls", () => {
  const post = (slack: FakeSlack, signal?: AbortSignal) =>
    fetch(`${slack.apiUrl}chat.postMessage`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: `Bearer ${slack.botToken}`,
      },
      body: new URLSearchParams({ channel: C, text: "held" }).toString(),
      ...(signal ? { signal } : {}),
    });

  it("keeps a call open without effect until release carries it out and answers it", async () => {
    const slack = await fakeSlack({ echoBotMessages: false });
    const held = slack.hold("chat.postMessage");
    expect(() => slack.hold("chat.postMessage")).toThrow(/already held/);
    const answer = post(slack);
    await slack.waitUntil(() => held.calls.length === 1);
    expect(slack.calls.map((c) => c.method)).toEqual(["chat.postMessage"]);
    expect(slack.messages(C)).toHaveLength(0);
    held.release();
    expect(await (await answer).json()).toMatchObject({ ok: true, channel: C });
    expect(slack.messages(C).map((m) => m.text)).toEqual(["held"]);
    expect((await api(slack, "chat.postMessage", { channel: C, text: "free" })).body.ok).toBe(true);
  });

  it("carries a held call out on release even when its caller has gone (the post exists, unheard)", async () => {
    const slack = await fakeSlack({ echoBotMessages: false });
    const held = slack.hold("chat.postMessage");
    const caller = new AbortController();
    const answer = post(slack, caller.signal);
    answer.catch(() => undefined);
    await slack.waitUntil(() => held.calls.length === 1);
    caller.abort();
    await expect(answer).rejects.toThrow();
    held.release();
    expect(slack.messages(C).map((m) => m.text)).toEqual(["held"]);
  });

  it("drop cuts a held call: the caller sees a network failure and nothing is posted", async () => {
    const slack = await fakeSlack({ echoBotMessages: false });
    const held = slack.hold("chat.postMessage");
    const answer = post(slack);
    answer.catch(() => undefined);
    await slack.waitUntil(() => held.calls.length === 1);
    held.drop();
    await expect(answer).rejects.toThrow();
    expect(slack.messages(C)).toHaveLength(0);
  });
});
