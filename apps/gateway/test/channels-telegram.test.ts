import { createFakeTelegram, type FakeTelegram } from "@ask-user/testkit/telegram";
import { afterEach, describe, expect, it } from "vitest";
import { call, deployInput, testGateway } from "./harness.ts";

const fakes: FakeTelegram[] = [];
afterEach(async () => {
  for (const fake of fakes.splice(0)) await fake.close();
});

const ADA = { id: 42, first_name: "Ada", username: "ada", language_code: "en" };

describe("the gateway with Telegram (real grammY against the fake Bot API)", () => {
  it("a question asked over HTTP is answered by a Telegram tap, and the message is edited to the summary", async () => {
    const tg = await createFakeTelegram({ botUsername: "gateway_test_bot" });
    fakes.push(tg); // closed after the gateway (afterEach order: the gateway's harness runs first)
    const gw = await testGateway({ TELEGRAM_BOT_TOKEN: tg.token, TELEGRAM_API_ROOT: tg.apiRoot });
    expect(gw.channels.map((c) => c.describe)).toEqual([
      expect.stringContaining("telegram (@gateway_test_bot"),
    ]);

    const created = await call(`${gw.url}/v1/questions`, "POST", {
      ...deployInput,
      target: `telegram:${ADA.id}`,
    });
    expect(created.status).toBe(201);
    const prompt = await tg.waitUntil(
      () => tg.messages(ADA.id).find((m) => m.text.includes("Where should I deploy?")),
      5_000,
    );
    const keyboard = (prompt.reply_markup as { inline_keyboard?: Array<Array<{ text: string }>> } | undefined)
      ?.inline_keyboard;
    const buttons = (keyboard ?? []).flat().map((button) => button.text);
    expect(buttons).toEqual(["Staging (Recommended)", "Production", "Other…", "Skip"]);

    const ada = tg.user(ADA);
    const tap = await ada.press(ADA.id, prompt.message_id, "Production");
    expect((await ada.waitForAnswer(tap)).text).toBe("Recorded: Production");

    const polled = await call(`${gw.url}/v1/questions/${created.body.id}?wait=5`, "GET");
    expect(polled.body).toMatchObject({
      status: "answered",
      resolvedBy: { channel: "telegram", userId: String(ADA.id) },
      result: { status: "answered", answers: { answers: { deploy_target: ["Production"] } } },
    });
    const edited = await tg.waitUntil(() => {
      const message = tg.message(ADA.id, prompt.message_id);
      return message?.text.startsWith("✅") ? message : undefined;
    }, 5_000);
    // Reads "@ada"; the invisible word joiner after "@" keeps the summary from notifying anyone.
    expect(edited.text).toBe("✅ Deploy: Production — @\u2060ada");
    expect(edited.reply_markup).toBeUndefined();
  }, 30_000);
});
