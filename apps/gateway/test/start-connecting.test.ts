import { createFakeTelegram, type FakeTelegram } from "@ask-user/testkit/telegram";
import { afterEach, describe, expect, it } from "vitest";
import { call, deployInput, testGateway } from "./harness.ts";

const fakes: FakeTelegram[] = [];
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
});
