/**
 * Webhook-mode channels whose platform is unreachable at start: the route at `/channels/<name>` is
 * there at once (503 with Retry-After, so the platform sends again), and serves the platform's requests
 * once the channel connects.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createLink, type Link } from "@ask-user/testkit/link";
import { createFakeSlack } from "@ask-user/testkit/slack";
import { createFakeTelegram } from "@ask-user/testkit/telegram";
import { afterEach, describe, expect, it } from "vitest";
import type { RunningGateway } from "../src/gateway.ts";
import { call, deployInput, testGateway } from "./harness.ts";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function downLink(): Promise<Link> {
  const link = await createLink();
  closers.push(() => link.close());
  return link;
}

async function connected(gw: RunningGateway, name: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (gw.channelStatus()[name]?.state !== "connected") {
    if (Date.now() > deadline)
      throw new Error(`${name} did not connect: ${JSON.stringify(gw.channelStatus())}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function answered(gw: RunningGateway, id: string) {
  const polled = await call(`${gw.url}/v1/questions/${id}?wait=5`, "GET");
  expect(polled.body).toMatchObject({
    status: "answered",
    result: { status: "answered", answers: { answers: { deploy_target: ["Production"] } } },
  });
}

describe("a webhook-mode channel whose platform is down at start", () => {
  it("Telegram: /channels/telegram answers 503 with Retry-After, then registers the webhook and takes taps", async () => {
    const tg = await createFakeTelegram({ botUsername: "gateway_test_bot" });
    closers.push(() => tg.close());
    const down = await downLink();
    const port = await freePort(); // Telegram needs the public URL before the gateway listens
    const hook = `http://127.0.0.1:${port}/channels/telegram`;
    const gw = await testGateway({
      ASK_USER_PORT: String(port),
      TELEGRAM_BOT_TOKEN: tg.token,
      TELEGRAM_API_ROOT: down.url(),
      TELEGRAM_WEBHOOK_URL: hook,
      TELEGRAM_WEBHOOK_SECRET: "gateway-webhook_secret-1",
    });
    expect(gw.channelStatus().telegram?.state).toBe("retrying");
    const early = await fetch(hook, {
      method: "POST",
      headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": "x" },
      body: JSON.stringify({ update_id: 1 }),
    });
    expect(early.status).toBe(503);
    expect(early.headers.get("retry-after")).toBe("5");

    down.up(tg.apiRoot);
    await connected(gw, "telegram");
    expect(gw.channels[0]?.describe).toBe(`telegram (@gateway_test_bot, webhook ${hook})`);
    const created = await call(`${gw.url}/v1/questions`, "POST", { ...deployInput, target: "telegram:42" });
    const prompt = await tg.waitUntil(() => tg.messages(42).find((m) => m.text.includes("deploy")), 5_000);
    const ada = tg.user({ id: 42, first_name: "Ada", username: "ada" });
    await ada.waitForAnswer(await ada.press(42, prompt.message_id, "Production"));
    await answered(gw, created.body.id);
  }, 60_000);

  it("Slack over HTTP: /channels/slack/events answers 503 with Retry-After, then serves signed requests", async () => {
    const slack = await createFakeSlack({ eventRetryDelaysMs: [] });
    closers.push(() => slack.close());
    const down = await downLink();
    const gw = await testGateway({
      ASK_USER_ANSWERERS: "conversation",
      SLACK_BOT_TOKEN: slack.botToken,
      SLACK_SIGNING_SECRET: slack.signingSecret,
      SLACK_API_URL: down.url(new URL(slack.apiUrl).pathname),
    });
    slack.setRequestUrl(`${gw.url}/channels/slack/events`);
    expect(gw.channelStatus().slack).toMatchObject({
      state: "retrying",
      error: expect.stringMatching(/auth\.test/),
    });
    const early = await slack.deliverHttp({ type: "url_verification", challenge: "chal-1", token: "t" });
    expect(early).toMatchObject({ status: 503 });

    down.up(slack.apiUrl);
    await connected(gw, "slack");
    const challenge = await slack.deliverHttp({ type: "url_verification", challenge: "chal-2", token: "t" });
    expect(challenge).toMatchObject({ status: 200, body: { challenge: "chal-2" } });
    const created = await call(`${gw.url}/v1/questions`, "POST", {
      ...deployInput,
      target: "slack:C0GENERAL",
    });
    const prompt = await slack.waitUntil(() =>
      slack.messages("C0GENERAL").find((m) => m.text.includes("Where should I deploy?")),
    );
    await slack.user({ id: "U0ALICE", name: "alice" }).press("C0GENERAL", prompt.ts, "Production");
    await answered(gw, created.body.id);
  }, 60_000);
});
