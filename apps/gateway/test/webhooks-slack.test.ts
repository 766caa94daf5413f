/**
 * Slack in HTTP mode inside the gateway: the real Bolt behind the gateway's one port at
 * `/channels/slack/events`, the fake Slack POSTing signed Events API and interactivity requests there.
 */
import { createFakeSlack, type FakeSlack } from "@ask-user/testkit/slack";
import { afterEach, describe, expect, it } from "vitest";
import { call, deployInput, testGateway } from "./harness.ts";

const fakes: FakeSlack[] = [];
afterEach(async () => {
  for (const fake of fakes.splice(0)) await fake.close();
});

const CHANNEL = "C0GENERAL";
const ALICE = { id: "U0ALICE", name: "alice" };

/** A fake Slack whose Request URL is the gateway's `/channels/slack/events`. */
async function gatewayWithSlack() {
  const slack = await createFakeSlack({ eventRetryDelaysMs: [] });
  fakes.push(slack); // closed after the gateway (afterEach order: the gateway's harness runs first)
  const gw = await testGateway({
    ASK_USER_ANSWERERS: "conversation", // a shared channel, no creator
    SLACK_BOT_TOKEN: slack.botToken,
    SLACK_SIGNING_SECRET: slack.signingSecret,
    SLACK_API_URL: slack.apiUrl,
  });
  const requestUrl = `${gw.url}/channels/slack/events`;
  slack.setRequestUrl(requestUrl);
  return { slack, gw, requestUrl };
}

async function ask(gw: { url: string }, slack: FakeSlack) {
  const created = await call(`${gw.url}/v1/questions`, "POST", {
    ...deployInput,
    target: `slack:${CHANNEL}`,
  });
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  const prompt = await slack.waitUntil(() =>
    slack.messages(CHANNEL).find((m) => m.text.includes("Where should I deploy?") && !m.thread_ts),
  );
  return { id, prompt };
}

describe("Slack's Events API and interactivity on the gateway's port (/channels/slack/events)", () => {
  it("echoes url_verification, and a signed block_actions tap answers a question (acked at once)", async () => {
    const { slack, gw } = await gatewayWithSlack();
    expect(gw.channels.map((c) => c.describe)).toEqual([
      "slack (@ask_user_bot, HTTP at /channels/slack/events)",
    ]);
    const challenge = await slack.deliverHttp({ type: "url_verification", challenge: "chal-1", token: "t" });
    expect(challenge).toMatchObject({ status: 200, body: { challenge: "chal-1" } });

    const { id, prompt } = await ask(gw, slack);
    const tap = await slack.user(ALICE).press(CHANNEL, prompt.ts, "Production");
    expect(tap).toMatchObject({ via: "http", type: "block_actions", status: 200 });
    expect(tap.ms).toBeLessThan(3000);
    const polled = await call(`${gw.url}/v1/questions/${id}?wait=5`, "GET");
    expect(polled.body).toMatchObject({
      status: "answered",
      resolvedBy: { channel: "slack", userId: ALICE.id },
      result: { status: "answered", answers: { answers: { deploy_target: ["Production"] } } },
    });
    const updated = await slack.waitUntil(() => {
      const message = slack.message(CHANNEL, prompt.ts);
      return message?.text.startsWith("✅") ? message : undefined;
    }, 5_000);
    expect(updated.text).toContain("✅ Deploy: Production");
  }, 30_000);

  it("a signed message event (a reply in the question's thread) answers a question", async () => {
    const { slack, gw } = await gatewayWithSlack();
    const { id, prompt } = await ask(gw, slack);
    const reply = await slack.user(ALICE).say(CHANNEL, "2", { threadTs: prompt.ts });
    expect(reply.delivery).toMatchObject({ via: "http", type: "event_callback", status: 200 });
    const polled = await call(`${gw.url}/v1/questions/${id}?wait=5`, "GET");
    expect(polled.body).toMatchObject({
      status: "answered",
      result: { status: "answered", answers: { answers: { deploy_target: ["Production"] } } },
    });
  }, 30_000);

  it("refuses a bad signature, another app's secret and a stale timestamp with 401, and nothing changes", async () => {
    const { slack, gw } = await gatewayWithSlack();
    const { id, prompt } = await ask(gw, slack);
    const message = slack.message(CHANNEL, prompt.ts);
    const buttons = (message?.blocks ?? []).find((b) => (b as { type?: string }).type === "actions") as
      | { elements: Array<{ action_id: string; value?: string; text: { text: string } }> }
      | undefined;
    const production = buttons?.elements.find((e) => e.text.text === "Production");
    expect(production).toBeDefined();
    const payload = {
      type: "block_actions",
      user: { id: ALICE.id, username: "alice", name: "alice", team_id: slack.team.id },
      team: slack.team,
      api_app_id: slack.bot.appId,
      container: { type: "message", message_ts: prompt.ts, channel_id: CHANNEL },
      channel: { id: CHANNEL, name: "general" },
      message: { ts: prompt.ts, text: message?.text },
      trigger_id: "1.2.3",
      actions: [
        { type: "button", action_id: production?.action_id, value: production?.value, block_id: "b" },
      ],
    };
    expect((await slack.deliverHttp(payload, { signingSecret: "not-the-secret" })).status).toBe(401);
    expect((await slack.deliverHttp(payload, { signature: "v0=00" })).status).toBe(401);
    const stale = Math.floor(Date.now() / 1000) - 301;
    expect((await slack.deliverHttp(payload, { timestampSec: stale })).status).toBe(401);
    const event = {
      type: "message",
      channel: CHANNEL,
      user: ALICE.id,
      text: "2",
      ts: "1.000001",
      thread_ts: prompt.ts,
    };
    const forgedEvent = {
      type: "event_callback",
      team_id: slack.team.id,
      api_app_id: slack.bot.appId,
      event_id: "EvFORGED",
      event,
    };
    expect((await slack.deliverHttp(forgedEvent, { signingSecret: "not-the-secret" })).status).toBe(401);

    expect((await call(`${gw.url}/v1/questions/${id}`, "GET")).body.status).toBe("pending");
    expect(slack.message(CHANNEL, prompt.ts)?.text).not.toMatch(/^✅/);
    // The same tap, signed with the app's secret, goes through.
    expect((await slack.deliverHttp(payload)).status).toBe(200);
    const polled = await call(`${gw.url}/v1/questions/${id}?wait=5`, "GET");
    expect(polled.body.result).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"] } },
    });
  }, 30_000);
});
