import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { signSlackRequest } from "../src/slack/index.ts";
import { api, appEndpoint, button, fakeSlack, payloadOf } from "./slack-harness.ts";

const C = "C0GENERAL";
const ALICE = { id: "U0ALICE", name: "alice" };

describe("fake Slack deliveries over HTTP", () => {
  it("signs requests as Bolt verifies them and sends interactivity as an exact form content type", async () => {
    const slack = await fakeSlack({ echoBotMessages: false });
    const received = await appEndpoint(slack);
    const posted = await api(slack, "chat.postMessage", {
      channel: C,
      text: "q",
      blocks: [{ type: "actions", elements: [button("Go", "go", "v1")] }],
    });
    const alice = slack.user(ALICE);
    const tap = await alice.press(C, String(posted.body.ts), "Go");
    expect(tap).toMatchObject({ via: "http", type: "block_actions", status: 200 });

    const request = received[0];
    expect(request?.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    const ts = String(request?.headers["x-slack-request-timestamp"]);
    expect(Math.abs(Number(ts) - Date.now() / 1000)).toBeLessThan(5);
    const expected = `v0=${createHmac("sha256", slack.signingSecret).update(`v0:${ts}:${request?.body}`).digest("hex")}`;
    expect(request?.headers["x-slack-signature"]).toBe(expected);
    expect(signSlackRequest(slack.signingSecret, Number(ts), String(request?.body))).toBe(expected);

    const payload = payloadOf(String(request?.body));
    expect(payload).toMatchObject({
      type: "block_actions",
      user: { id: ALICE.id, username: "alice" },
      container: { type: "message", message_ts: posted.body.ts, channel_id: C },
      channel: { id: C },
      trigger_id: tap.triggerId,
      actions: [{ type: "button", action_id: "go", value: "v1", text: { type: "plain_text", text: "Go" } }],
    });
    expect(String(payload.response_url)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/response\//);
  });

  it("sends messages as signed JSON event_callbacks: threads, DMs and other bots", async () => {
    const slack = await fakeSlack();
    const received = await appEndpoint(slack);
    const alice = slack.user(ALICE);
    const robot = slack.user({ id: "U0ROBOT", name: "robot", bot_id: "B0ROBOT" });
    const root = await alice.say(C, "hello @ask_user_bot");
    const reply = await alice.say(C, "in thread", { threadTs: root.message.ts });
    await alice.say(C, "reply to a reply", { threadTs: reply.message.ts });
    await alice.say(alice.dm, "direct");
    await robot.say(C, "beep");
    expect(received.map((r) => r.headers["content-type"])).toEqual(Array(5).fill("application/json"));
    const events = received.map(
      (r) => (JSON.parse(r.body) as { type: string; event: Record<string, unknown> }).event,
    );
    expect(JSON.parse(String(received[0]?.body))).toMatchObject({
      type: "event_callback",
      authorizations: [{ user_id: "U0FAKEBOT" }],
    });
    expect(events[0]).toMatchObject({
      type: "message",
      channel: C,
      channel_type: "channel",
      user: ALICE.id,
      text: "hello <@U0FAKEBOT>",
    });
    expect(events[0]).not.toHaveProperty("thread_ts");
    expect(events[1]).toMatchObject({ thread_ts: root.message.ts, parent_user_id: ALICE.id });
    expect(events[2]).toMatchObject({ thread_ts: root.message.ts });
    expect(events[3]).toMatchObject({ channel: "D0ALICE", channel_type: "im" });
    expect(events[4]).toMatchObject({ user: "U0ROBOT", bot_id: "B0ROBOT" });
    await expect(alice.say(C, "x", { threadTs: "1.000000" })).rejects.toThrow(/no message 1.000000/);
  });

  it("echoes the app's own posts back as message events with bot_id, as Slack does", async () => {
    const slack = await fakeSlack();
    const received = await appEndpoint(slack);
    await api(slack, "chat.postMessage", { channel: C, text: "mine" });
    await slack.waitUntil(() => received.length === 1);
    expect(JSON.parse(String(received[0]?.body)).event).toMatchObject({
      user: "U0FAKEBOT",
      bot_id: "B0FAKEBOT",
      text: "mine",
    });
  });

  it("records slow or failed answers", async () => {
    const slack = await fakeSlack();
    slack.setRequestUrl("http://127.0.0.1:9/slack/events");
    const delivery = await slack.deliver({ type: "event_callback", event: { type: "app_mention" } });
    expect(delivery).toMatchObject({ via: "http", status: 0 });
    expect(delivery.error).toBeDefined();
    slack.setRequestUrl(undefined);
    await expect(slack.deliver({ type: "event_callback" })).rejects.toThrow(/no request URL/);
  });
});

describe("fake Slack modals and response_url", () => {
  async function tapped() {
    const slack = await fakeSlack({ echoBotMessages: false });
    let answer: unknown;
    const received = await appEndpoint(slack, () => answer);
    const posted = await api(slack, "chat.postMessage", {
      channel: C,
      text: "q",
      blocks: [{ type: "actions", elements: [button("Go", "go")] }],
    });
    const alice = slack.user(ALICE);
    const tap = await alice.press(C, String(posted.body.ts), "Go");
    const responseUrl = String(payloadOf(String(received[0]?.body)).response_url);
    return {
      slack,
      alice,
      tap,
      responseUrl,
      ts: String(posted.body.ts),
      received,
      setAnswer: (a: unknown) => {
        answer = a;
      },
    };
  }

  it("submits modals like Slack's client: required inputs, values by block and action id, errors kept", async () => {
    const { slack, alice, tap, received, setAnswer } = await tapped();
    const view = {
      type: "modal",
      callback_id: "cb",
      title: { type: "plain_text", text: "T" },
      submit: { type: "plain_text", text: "OK" },
      blocks: [
        {
          type: "input",
          block_id: "b",
          label: { type: "plain_text", text: "L" },
          element: { type: "plain_text_input", action_id: "a", max_length: 5 },
        },
      ],
    };
    const opened = await api(slack, "views.open", { trigger_id: tap.triggerId, view });
    const id = String((opened.body.view as { id: string }).id);
    expect((await alice.waitForView()).id).toBe(id);
    await expect(alice.submit(id, "")).rejects.toThrow(/required input "a" is empty/);
    await expect(alice.submit(id, "toolong")).rejects.toThrow(/over max_length/);

    setAnswer({ response_action: "errors", errors: { b: "Nope" } });
    await alice.submit(id, "hey");
    expect(payloadOf(String(received.at(-1)?.body))).toMatchObject({
      type: "view_submission",
      user: { id: ALICE.id },
      view: {
        id,
        callback_id: "cb",
        state: { values: { b: { a: { type: "plain_text_input", value: "hey" } } } },
      },
    });
    expect(slack.views()[0]).toMatchObject({ open: true, errors: { b: "Nope" } });

    setAnswer(undefined);
    await alice.submit(id, "ok");
    expect(slack.views()[0]?.open).toBe(false);
    await expect(alice.submit(id, "again")).rejects.toThrow(/no open view/);
  });

  it("takes response_url posts: ephemeral by default, replace_original edits, and at most 5 uses", async () => {
    const { slack, alice, responseUrl, ts } = await tapped();
    const post = (body: unknown) =>
      fetch(responseUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    expect((await post({ text: "only you" })).status).toBe(200);
    expect(alice.ephemerals()).toMatchObject([{ channel: C, text: "only you", via: "response_url" }]);
    expect((await post({ replace_original: true, text: "replaced" })).status).toBe(200);
    expect(slack.message(C, ts)).toMatchObject({ text: "replaced", blocks: [], edits: 1 });
    expect((await post({ response_type: "in_channel", text: "everyone" })).status).toBe(200);
    expect(slack.messages(C).map((m) => m.text)).toEqual(["replaced", "everyone"]);
    expect((await post({ text: "4" })).status).toBe(200);
    expect((await post({ text: "5" })).status).toBe(200);
    const sixth = await post({ text: "6" });
    expect(sixth.status).toBe(404);
    expect(await sixth.json()).toEqual({ ok: false, error: "expired_url" });
    expect(slack.responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 404]);
  });
});

describe("fake Slack Socket Mode", () => {
  it("hands out a one-time ws:// URL, says hello, sends envelopes and takes acks", async () => {
    const slack = await fakeSlack();
    const opened = await api(slack, "apps.connections.open", {}, slack.appToken);
    const url = String(opened.body.url);
    expect(url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/socket-mode\?ticket=/);

    const ws = new WebSocket(url);
    const messages: Array<Record<string, unknown>> = [];
    ws.on("message", (data) => {
      const message = JSON.parse(String(data)) as Record<string, unknown>;
      messages.push(message);
      if (typeof message.envelope_id === "string") {
        ws.send(JSON.stringify({ envelope_id: message.envelope_id, payload: { response_action: "clear" } }));
      }
    });
    await slack.waitUntil(() => messages[0]);
    expect(messages[0]).toMatchObject({ type: "hello", connection_info: { app_id: "A0FAKEAPP" } });
    expect(slack.socketConnections()).toBe(1);

    const delivery = await slack.deliver({ type: "view_submission", view: {} });
    expect(delivery).toMatchObject({
      via: "socket",
      type: "view_submission",
      status: 200,
      body: { response_action: "clear" },
    });
    expect(messages[1]).toMatchObject({
      type: "interactive",
      accepts_response_payload: true,
      envelope_id: delivery.envelopeId,
    });
    const event = await slack.deliver({ type: "event_callback", event: { type: "message" } });
    expect(messages[2]).toMatchObject({ type: "events_api", payload: { type: "event_callback" } });
    expect(event.status).toBe(200);

    const reused = new WebSocket(url);
    const refused = await new Promise<string>((resolve) => {
      reused.on("unexpected-response", (_req, res) => resolve(String(res.statusCode)));
      reused.on("error", (error) => resolve(error.message));
    });
    expect(refused).toMatch(/401/);

    slack.disconnectSockets("refresh_requested");
    await slack.waitUntil(() => messages.find((m) => m.type === "disconnect"));
    ws.close();
    await slack.waitUntil(() => slack.socketConnections() === 0);
  });
});
