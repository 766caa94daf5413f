/**
 * Telegram (webhook) and Slack (HTTP) together: the gateway listens on its one port and both
 * platforms' requests come in there; neither channel opens a server of its own (no 8443, no 3000).
 */
import { createServer } from "node:http";
import { type AddressInfo, Server } from "node:net";
import { createFakeSlack, type FakeSlack } from "@ask-user/testkit/slack";
import { createFakeTelegram, type FakeTelegram } from "@ask-user/testkit/telegram";
import { afterEach, describe, expect, it, vi } from "vitest";
import { call, deployInput, testGateway } from "./harness.ts";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const close of closers.splice(0)) await close();
});

const ADA = { id: 42, first_name: "Ada", username: "ada", language_code: "en" };
const ALICE = { id: "U0ALICE", name: "alice" };
const SECRET = "one-port_secret";

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** True when something accepts connections on the port. */
async function listening(port: number): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2_000) });
    return true;
  } catch {
    return false;
  }
}

describe("the gateway's one port with Telegram and Slack both receiving over HTTP", () => {
  it("serves both platforms' webhooks on its port and opens no other server", async () => {
    const tg: FakeTelegram = await createFakeTelegram({ botUsername: "gateway_test_bot" });
    const slack: FakeSlack = await createFakeSlack({ eventRetryDelaysMs: [] });
    closers.push(
      () => tg.close(),
      () => slack.close(),
    ); // after the gateway (the harness closes it first)
    const [port, telegramPort, slackPort] = [await freePort(), await freePort(), await freePort()];

    // Every server that starts listening from here on (the fakes and the probes above already do).
    const listen = vi.spyOn(Server.prototype, "listen");
    const gw = await testGateway({
      ASK_USER_PORT: String(port),
      ASK_USER_ANSWERERS: "conversation",
      TELEGRAM_BOT_TOKEN: tg.token,
      TELEGRAM_API_ROOT: tg.apiRoot,
      TELEGRAM_WEBHOOK_URL: `http://127.0.0.1:${port}/channels/telegram`,
      TELEGRAM_WEBHOOK_SECRET: SECRET,
      // The standalone runners' ports: ignored inside the gateway.
      TELEGRAM_WEBHOOK_PORT: String(telegramPort),
      SLACK_BOT_TOKEN: slack.botToken,
      SLACK_SIGNING_SECRET: slack.signingSecret,
      SLACK_API_URL: slack.apiUrl,
      SLACK_PORT: String(slackPort),
    });
    expect(listen.mock.contexts).toEqual([gw.http.server]);
    listen.mockRestore();
    expect(gw.url).toBe(`http://127.0.0.1:${port}`);
    expect(gw.channels.map((c) => c.describe)).toEqual([
      `telegram (@gateway_test_bot, webhook http://127.0.0.1:${port}/channels/telegram)`,
      "slack (@ask_user_bot, HTTP at /channels/slack/events)",
    ]);
    expect(await listening(telegramPort)).toBe(false);
    expect(await listening(slackPort)).toBe(false);
    slack.setRequestUrl(`${gw.url}/channels/slack/events`);

    // Telegram: a tap, POSTed by the fake Bot API to the gateway's port with the secret.
    const toTelegram = await call(`${gw.url}/v1/questions`, "POST", {
      ...deployInput,
      target: `telegram:${ADA.id}`,
    });
    const tgPrompt = await tg.waitUntil(() => tg.messages(ADA.id).find((m) => m.from.is_bot), 5_000);
    const ada = tg.user(ADA);
    expect((await ada.waitForAnswer(ada.press(ADA.id, tgPrompt.message_id, "Production"))).text).toBe(
      "Recorded: Production",
    );
    // Slack: a tap, POSTed signed by the fake Slack to the same port.
    const toSlack = await call(`${gw.url}/v1/questions`, "POST", {
      ...deployInput,
      target: "slack:C0GENERAL",
    });
    const slackPrompt = await slack.waitUntil(() => slack.messages("C0GENERAL").find((m) => !m.thread_ts));
    const tap = await slack.user(ALICE).press("C0GENERAL", slackPrompt.ts, "Staging (Recommended)");
    expect(tap).toMatchObject({ status: 200, url: `${gw.url}/channels/slack/events` });

    for (const [created, answer] of [
      [toTelegram, "Production"],
      [toSlack, "Staging (Recommended)"],
    ] as const) {
      const polled = await call(`${gw.url}/v1/questions/${created.body.id}?wait=5`, "GET");
      expect(polled.body.result).toEqual({
        status: "answered",
        answers: { answers: { deploy_target: [answer] } },
      });
    }
  }, 30_000);
});
