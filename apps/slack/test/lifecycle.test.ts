import { createMemoryStore } from "@ask-user/core";
import { encodeAction } from "@ask-user/core/channel";
import { createFakeClock } from "@ask-user/core/testing";
import { describe, expect, it } from "vitest";
import {
  ALICE,
  actions,
  ask,
  CHANNEL,
  callsOf,
  DEPLOY,
  expectAllAcked,
  fakeSlack,
  MODES,
  waitForText,
  world,
} from "./harness.ts";

describe.each(MODES)("lifecycle over %s", (mode) => {
  it('expiry edits the message to "⌛ Deploy — expired", removes the buttons and refuses a late tap in local time', async () => {
    const clock = createFakeClock(Date.now());
    const w = await world(mode, { clock });
    const { record, ts, result } = await ask(w, { ...DEPLOY, timeoutSeconds: 60 });
    await clock.advance(60_000);
    expect(await result).toEqual({ status: "no_answer", reason: "expired" });
    const summary = await waitForText(w.slack, CHANNEL, ts, "⌛ Deploy — expired");
    expect(actions(summary)).toEqual([]);
    // A tap from a screen that still shows the buttons is refused privately.
    const token = record.tokens[0] ?? "";
    await w.alice.click(CHANNEL, ts, encodeAction(token, { kind: "option", index: 0 }), { stale: true });
    const refusal = await w.alice.waitForEphemeral();
    // The reader's own time zone (Slack renders the date token); UTC only for old clients.
    const seconds = Math.floor(record.expiresAt / 1000);
    expect(refusal.text).toMatch(
      new RegExp(`^This question expired at <!date\\^${seconds}\\^\\{time\\}\\|\\d\\d:\\d\\d UTC>\\.$`),
    );
    expect(w.slack.display(refusal.text)).toMatch(
      /^This question expired at (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC\.$/,
    );
  });

  it('cancel edits the message to "✖ Deploy — cancelled"', async () => {
    const w = await world(mode);
    const { record, ts, result } = await ask(w, DEPLOY);
    await w.broker.cancel(record.id);
    expect(await result).toEqual({ status: "no_answer", reason: "cancelled" });
    const summary = await waitForText(w.slack, CHANNEL, ts, "✖ Deploy — cancelled");
    expect(actions(summary)).toEqual([]);
  });

  it("an answer from another surface edits the message too", async () => {
    const w = await world(mode);
    const { record, ts } = await ask(w, DEPLOY, ALICE.id);
    await w.broker.answer(
      record.id,
      { env: ["Production"] },
      { channel: "web", userId: "op", displayName: "operator" },
    );
    await waitForText(w.slack, w.alice.dm, ts, "✅ Deploy: Production — operator via the web panel");
  });

  it("after a restart a tap resolves the question and edits its message", async () => {
    // Without echoes: the app's own prompt coming back while it restarts would find nobody to ack it.
    const slack = await fakeSlack({ echoBotMessages: false });
    const store = createMemoryStore();
    const before = await world(mode, { slack, store });
    const { record, ts } = await ask(before, DEPLOY, ALICE.id);
    await before.stop();

    const after = await world(mode, { slack, store });
    await after.broker.ready;
    await after.alice.press(after.alice.dm, ts, "Production");
    expect(await after.broker.wait(record.id)).toEqual({
      status: "answered",
      answers: { answers: { env: ["Production"] } },
    });
    await waitForText(slack, after.alice.dm, ts, "✅ Deploy: Production — @alice");
    expect(callsOf(slack, "conversations.open").length).toBeGreaterThanOrEqual(2);
    expectAllAcked(slack);
  });

  it("honours Retry-After when Slack rate-limits a post", async () => {
    const w = await world(mode, { retries: 2 });
    w.slack.failNext("chat.postMessage", { ratelimited: 1 });
    const { ts } = await ask(w, DEPLOY);
    const posts = callsOf(w.slack, "chat.postMessage");
    expect(posts.map((c) => c.error)).toEqual(["ratelimited", undefined]);
    expect((posts[1]?.at ?? 0) - (posts[0]?.at ?? 0)).toBeGreaterThanOrEqual(1000);
    expect(w.slack.message(CHANNEL, ts)).toBeDefined();
  });

  it("a failed delivery ends the question undeliverable with Slack's error recorded", async () => {
    const w = await world(mode);
    w.slack.failNext("chat.postMessage", { error: "not_in_channel" });
    const record = await w.broker.create(DEPLOY, { target: { channel: "slack", conversation: CHANNEL } });
    expect(record.status).toBe("undeliverable");
    expect(record.error).toContain("not_in_channel");
    expect(await w.broker.wait(record.id)).toEqual({ status: "no_answer", reason: "undeliverable" });

    const dm = await w.broker.create(DEPLOY, { target: { channel: "slack", conversation: "D0ALICE" } });
    expect(dm.status).toBe("undeliverable");
    expect(dm.error).toContain("user's id");
  });
});

describe("HTTP request checks", () => {
  it("a bad signature and a request older than 5 minutes get 401 and change nothing", async () => {
    const w = await world("http");
    const { record, ts } = await ask(w, DEPLOY);
    const message = w.slack.message(CHANNEL, ts);
    const button = actions(message)[0] as { elements: Array<{ action_id: string }> };
    const payload = {
      type: "block_actions",
      user: { id: ALICE.id, username: "alice", name: "alice", team_id: w.slack.team.id },
      team: w.slack.team,
      api_app_id: w.slack.bot.appId,
      container: { type: "message", message_ts: ts, channel_id: CHANNEL },
      channel: { id: CHANNEL, name: "general" },
      message: { ts, text: message?.text },
      trigger_id: "1.2.3",
      actions: [{ type: "button", action_id: button.elements[0]?.action_id, block_id: "b" }],
    };
    const forged = await w.slack.deliverHttp(payload, { signingSecret: "not-the-secret" });
    expect(forged.status).toBe(401);
    const tampered = await w.slack.deliverHttp(payload, { signature: "v0=00" });
    expect(tampered.status).toBe(401);
    const stale = await w.slack.deliverHttp(payload, { timestampSec: Math.floor(Date.now() / 1000) - 301 });
    expect(stale.status).toBe(401);
    const charset = await w.slack.deliverHttp(payload, {
      contentType: "application/x-www-form-urlencoded; charset=utf-8",
    });
    expect(charset.status).not.toBe(200);
    expect((await w.broker.get(record.id))?.status).toBe("pending");

    const fresh = await w.slack.deliverHttp(payload);
    expect(fresh.status).toBe(200);
    await waitForText(w.slack, CHANNEL, ts, "✅ Deploy: Staging (Recommended) — @alice");
    const challenge = await w.slack.deliverHttp({
      type: "url_verification",
      challenge: "abc123",
      token: "t",
    });
    expect(challenge.body).toEqual({ challenge: "abc123" });
  });
});
