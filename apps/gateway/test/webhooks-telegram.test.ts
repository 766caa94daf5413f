/**
 * Telegram in webhook mode inside the gateway: the real grammY behind the gateway's one port at
 * `/channels/telegram`, the fake Bot API POSTing its updates there with the secret token.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createFakeTelegram, type FakeMessage, type FakeTelegram } from "@ask-user/testkit/telegram";
import { afterEach, describe, expect, it } from "vitest";
import { call, deployInput, testGateway } from "./harness.ts";

const fakes: FakeTelegram[] = [];
afterEach(async () => {
  for (const fake of fakes.splice(0)) await fake.close();
});

const ADA = { id: 42, first_name: "Ada", username: "ada", language_code: "en" };
const SECRET = "gateway-webhook_secret-1";

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A fake Telegram and a gateway whose webhook URL is its own port + `/channels/telegram`. */
async function gatewayWithWebhook() {
  const tg = await createFakeTelegram({ botUsername: "gateway_test_bot" });
  fakes.push(tg); // closed after the gateway (afterEach order: the gateway's harness runs first)
  const port = await freePort(); // Telegram needs the public URL before the gateway listens
  const hook = `http://127.0.0.1:${port}/channels/telegram`;
  const gw = await testGateway({
    ASK_USER_PORT: String(port),
    TELEGRAM_BOT_TOKEN: tg.token,
    TELEGRAM_API_ROOT: tg.apiRoot,
    TELEGRAM_WEBHOOK_URL: hook,
    TELEGRAM_WEBHOOK_SECRET: SECRET,
  });
  return { tg, gw, hook };
}

/** POSTs an update to the gateway's Telegram webhook, as Telegram does (optionally with a secret). */
function postUpdate(hook: string, update: unknown, secret?: string) {
  return fetch(hook, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(secret === undefined ? {} : { "x-telegram-bot-api-secret-token": secret }),
    },
    body: JSON.stringify(update),
  });
}

async function askAda(gw: { url: string }, tg: FakeTelegram, input: unknown = deployInput) {
  const created = await call(`${gw.url}/v1/questions`, "POST", {
    ...(input as object),
    target: `telegram:${ADA.id}`,
  });
  expect(created.status).toBe(201);
  const prompt = await tg.waitUntil(
    () => tg.messages(ADA.id).find((m) => m.from.is_bot && m.text.includes("?")),
    5_000,
  );
  return { id: created.body.id as string, prompt };
}

function callbackData(message: FakeMessage, label: string): string {
  const keyboard = (
    message.reply_markup as { inline_keyboard?: Array<Array<{ text: string; callback_data?: string }>> }
  ).inline_keyboard;
  const button = (keyboard ?? []).flat().find((b) => b.text === label);
  if (!button?.callback_data) throw new Error(`no button ${label}`);
  return button.callback_data;
}

describe("Telegram's webhook on the gateway's port (/channels/telegram)", () => {
  it("registers the gateway's URL with the secret, and a tap Telegram POSTs there answers the question", async () => {
    const { tg, gw, hook } = await gatewayWithWebhook();
    expect(gw.channels.map((c) => c.describe)).toEqual([`telegram (@gateway_test_bot, webhook ${hook})`]);
    const info = await fetch(`${tg.apiRoot}/bot${tg.token}/getWebhookInfo`);
    expect(((await info.json()) as { result: unknown }).result).toMatchObject({ url: hook });

    const { id, prompt } = await askAda(gw, tg);
    const ada = tg.user(ADA);
    const tap = ada.press(ADA.id, prompt.message_id, "Production");
    expect((await ada.waitForAnswer(tap)).text).toBe("Recorded: Production");
    const polled = await call(`${gw.url}/v1/questions/${id}?wait=5`, "GET");
    expect(polled.body).toMatchObject({
      status: "answered",
      resolvedBy: { channel: "telegram", userId: String(ADA.id) },
      result: { status: "answered", answers: { answers: { deploy_target: ["Production"] } } },
    });
    // Telegram's request got its 200 from the gateway, and nobody polled.
    expect(await tg.waitUntil(() => tg.deliveries.at(-1))).toMatchObject({ attempt: 1, status: 200 });
    expect(tg.calls.filter((c) => c.method === "getUpdates")).toEqual([]);
  }, 30_000);

  it("answers an update without the right secret with 401, and nothing runs", async () => {
    const { tg, gw, hook } = await gatewayWithWebhook();
    const { id, prompt } = await askAda(gw, tg);
    const forged = {
      update_id: 990_001,
      callback_query: {
        id: "forged-query",
        from: { id: ADA.id, is_bot: false, first_name: "Ada" },
        chat_instance: "1",
        data: callbackData(prompt, "Production"),
        message: { message_id: prompt.message_id, date: 1, chat: { id: ADA.id, type: "private" }, text: "x" },
      },
    };
    for (const secret of ["wrong-secret", undefined, `${SECRET}x`]) {
      const response = await postUpdate(hook, forged, secret);
      expect(response.status).toBe(401);
    }
    expect((await fetch(hook)).status).toBe(405); // Telegram only POSTs
    expect((await call(`${gw.url}/v1/questions/${id}`, "GET")).body.status).toBe("pending");
    expect(tg.calls.filter((c) => c.method === "answerCallbackQuery")).toEqual([]);
    expect(tg.messages(ADA.id).find((m) => m.message_id === prompt.message_id)?.edit_date).toBeUndefined();
  }, 30_000);

  it("handles an update Telegram delivers twice (same update_id) once", async () => {
    const { tg, gw } = await gatewayWithWebhook();
    const release = {
      questions: [
        ...deployInput.questions,
        {
          id: "notify",
          header: "Notify",
          question: "Tell whom?",
          options: [{ label: "Team" }, { label: "Nobody" }],
        },
      ],
    };
    const { id, prompt } = await askAda(gw, tg, release);
    const ada = tg.user(ADA);
    const notices = () =>
      tg.messages(ADA.id).filter((m) => m.from.is_bot && m.message_id > prompt.message_id);

    ada.sendText(ADA.id, "1: Production");
    await tg.waitUntil(() => notices().length === 1, 5_000); // the stepper: what is still needed
    const first = await tg.waitUntil(() => tg.deliveries.find((d) => d.status === 200), 5_000);
    // Telegram sends it again (as when its answer was lost on the way): acknowledged, and dropped.
    tg.redeliver(first.update_id);
    await tg.waitUntil(
      () => tg.deliveries.filter((d) => d.update_id === first.update_id && d.status === 200).length === 2,
      5_000,
    );

    const team = ada.sendText(ADA.id, "Team");
    // The complete answer is confirmed with a 👍 on Ada's message: the summary edit says the rest.
    await tg.waitUntil(() => tg.message(ADA.id, team.message_id)?.reactions?.includes("👍"), 5_000);
    const polled = await call(`${gw.url}/v1/questions/${id}?wait=5`, "GET");
    expect(polled.body.result).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"], notify: ["Team"] } },
    });
    expect(notices().map((m) => m.text.split(".")[0])).toEqual(["Recorded: Deploy: Production"]);
  }, 30_000);
});
