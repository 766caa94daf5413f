import { createFakeSlack } from "@ask-user/testkit/slack";
import { createFakeTelegram } from "@ask-user/testkit/telegram";
import { afterEach, describe, expect, it, vi } from "vitest";
import { call, deployInput, testGateway } from "./harness.ts";

const fakes: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const fake of fakes.splice(0)) await fake.close();
});

describe("a question for a channel that is still connecting", () => {
  it("waits for the attempt in progress and goes out with the channel's buttons", async () => {
    const tg = await createFakeTelegram({ botUsername: "gateway_test_bot" });
    fakes.push(tg); // closed after the gateway (afterEach order: the gateway's harness runs first)
    const getMe = tg.hold("getMe"); // Telegram is slow to answer the token check
    const gw = await testGateway(
      { TELEGRAM_BOT_TOKEN: tg.token, TELEGRAM_API_ROOT: tg.apiRoot },
      { channelWaitMs: 0 },
    );
    expect(gw.channelStatus()).toEqual({ telegram: { state: "connecting" } });
    const asked = call(`${gw.url}/v1/questions`, "POST", { ...deployInput, target: "telegram:42" });
    await tg.waitUntil(() => getMe.calls.length > 0, 5_000);
    getMe.release();
    expect((await asked).body.status).toBe("pending");
    expect(gw.channelStatus()).toEqual({ telegram: { state: "connected" } });
    const prompt = await tg.waitUntil(
      () => tg.messages(42).find((m) => m.text.includes("Where should I deploy?")),
      5_000,
    );
    const keyboard = (prompt.reply_markup as { inline_keyboard?: Array<Array<{ text: string }>> } | undefined)
      ?.inline_keyboard;
    expect((keyboard ?? []).flat().map((button) => button.text)).toEqual([
      "Staging (Recommended)",
      "Production",
      "Other…",
      "Skip",
    ]);
  }, 30_000);

  it("after a failed attempt, a question asked while the next one is in progress goes out with Slack's buttons", async () => {
    const slack = await createFakeSlack();
    fakes.push(slack);
    slack.failNext("auth.test", { status: 503 }); // the first attempt fails: Slack is down
    const gw = await testGateway(
      {
        ASK_USER_ANSWERERS: "conversation",
        SLACK_BOT_TOKEN: slack.botToken,
        SLACK_APP_TOKEN: slack.appToken,
        SLACK_API_URL: slack.apiUrl,
      },
      { channelWaitMs: 0 },
    );
    await slack.waitUntil(() => gw.channelStatus().slack?.state === "retrying", 10_000);
    const authTest = slack.hold("auth.test"); // the next attempt (1 s later) waits for Slack's answer
    await slack.waitUntil(() => authTest.calls.length === 1, 10_000);
    expect(gw.channelStatus().slack?.state).toBe("connecting");
    // The broker is past its start (its repair sweep saw the channel retrying): only the channel waits.
    const asked = call(`${gw.url}/v1/questions`, "POST", { ...deployInput, target: "slack:C0GENERAL" });
    await vi.waitFor(
      async () => {
        const listed = await call(`${gw.url}/v1/questions?status=pending`, "GET");
        expect(listed.body.questions).toHaveLength(1); // stored: its delivery has begun
      },
      { timeout: 10_000, interval: 50 },
    );
    authTest.release();
    expect((await asked).body.status).toBe("pending");
    const prompt = await slack.waitUntil(() => slack.messages("C0GENERAL")[0], 10_000);
    expect(slack.render("C0GENERAL", prompt.ts)).toContain(
      "[Staging (Recommended)]  [Production]  [Other…]  [Skip]",
    );
  }, 30_000);
});
