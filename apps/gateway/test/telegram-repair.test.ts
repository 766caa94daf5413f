import { join } from "node:path";
import { createFakeTelegram, type FakeMessage, type FakeTelegram } from "@ask-user/testkit/telegram";
import { afterEach, describe, expect, it, vi } from "vitest";
import { gatewayProcesses } from "./gateway-process.ts";
import { call, deployInput, tempDir } from "./harness.ts";

const { start: startChild, kill9 } = gatewayProcesses();
const fakes: FakeTelegram[] = [];
afterEach(async () => {
  for (const fake of fakes.splice(0)) await fake.close();
});

const ADA = { id: 42, first_name: "Ada", username: "ada", language_code: "en" };
const QUESTION = "Where should I deploy?";

/** A fake Telegram and the environment of a gateway that runs Telegram against it, on a fresh database. */
async function setup(): Promise<{ tg: FakeTelegram; env: Record<string, string> }> {
  const tg = await createFakeTelegram({ botUsername: "gateway_test_bot" });
  fakes.push(tg);
  const env = {
    ASK_USER_DB: join(tempDir(), "gateway.db"),
    TELEGRAM_BOT_TOKEN: tg.token,
    TELEGRAM_API_ROOT: tg.apiRoot,
  };
  return { tg, env };
}

const prompts = (tg: FakeTelegram): FakeMessage[] =>
  tg.messages(ADA.id).filter((m) => m.from.is_bot && m.text.includes(QUESTION));

/** The bot's messages in Ada's chat as they stand: id and text. */
const botMessages = (tg: FakeTelegram) =>
  tg
    .messages(ADA.id)
    .filter((m) => m.from.is_bot)
    .map((m) => [m.message_id, m.text]);

const promptSends = (tg: FakeTelegram, from = 0) =>
  tg.calls
    .slice(from)
    .filter((c) => c.method === "sendMessage" && String(c.params.text ?? "").includes(QUESTION));

describe("repair after kill -9, on Telegram (a real gateway process against the fake Bot API)", () => {
  it("delivers a prompt whose sendMessage was cut off, exactly once more, and its buttons answer it", async () => {
    const { tg, env } = await setup();
    const first = await startChild(env);
    const hold = tg.hold("sendMessage");
    const asked = call(`${first.url}/v1/questions`, "POST", { ...deployInput, target: `telegram:${ADA.id}` });
    asked.catch(() => undefined); // the process dies under it
    await tg.waitUntil(() => hold.calls.length === 1, 10_000);
    await kill9(first.child);
    hold.release(); // Telegram still sends it: a message nobody knows the id of
    await tg.waitUntil(() => prompts(tg).length === 1);
    const orphan = prompts(tg)[0];

    const sendsBefore = tg.calls.length;
    const second = await startChild(env);
    const [delivered] = await tg.waitUntil(() => prompts(tg).length === 2 && prompts(tg).slice(1), 10_000);
    if (!orphan || !delivered) throw new Error("no prompt");
    // The store records the delivery a moment after Telegram has the message: wait for it.
    const question = await vi.waitFor(
      async () => {
        const [pending] = (await call(`${second.url}/v1/questions?status=pending`, "GET")).body.questions;
        if (!(pending?.deliveries?.length > 0)) throw new Error("the delivery is not stored yet");
        return pending;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(question.deliveries).toEqual([
      expect.objectContaining({ kind: "prompt", messageId: String(delivered.message_id) }),
    ]);

    const ada = tg.user(ADA);
    const tap = ada.press(ADA.id, delivered.message_id, "Production");
    expect(await ada.waitForAnswer(tap, 15_000)).toMatchObject({ text: "Recorded: Production" });
    const answered = await call(`${second.url}/v1/questions/${question.id}?wait=10`, "GET");
    expect(answered.body.result).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"] } },
    });
    const summary = await tg.waitUntil(() => {
      const message = tg.message(ADA.id, delivered.message_id);
      return message?.text.startsWith("✅") && message;
    }, 5_000);
    expect(summary.reply_markup).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // a later sweep finds nothing to do
    expect(promptSends(tg, sendsBefore)).toHaveLength(1);
    expect(botMessages(tg)).toEqual([
      [orphan.message_id, expect.stringContaining(QUESTION)],
      [delivered.message_id, "✅ Deploy: Production — @\u2060ada"],
    ]);
  }, 60_000);

  it("edits the message to its summary when the edit was cut off by kill -9 after the answer", async () => {
    const { tg, env } = await setup();
    const first = await startChild(env);
    const created = await call(`${first.url}/v1/questions`, "POST", {
      ...deployInput,
      target: `telegram:${ADA.id}`,
    });
    expect(created.status).toBe(201);
    const [prompt] = await tg.waitUntil(() => prompts(tg).length === 1 && prompts(tg), 10_000);
    if (!prompt) throw new Error("no prompt");

    const hold = tg.hold("editMessageText");
    const ada = tg.user(ADA);
    const tap = ada.press(ADA.id, prompt.message_id, "Production");
    expect(await ada.waitForAnswer(tap, 10_000)).toMatchObject({ text: "Recorded: Production" });
    await tg.waitUntil(() => hold.calls.length === 1, 10_000);
    await kill9(first.child);
    hold.drop(); // the edit never reached Telegram
    expect(tg.message(ADA.id, prompt.message_id)?.text).toContain(QUESTION);

    const second = await startChild(env);
    const edited = await tg.waitUntil(() => {
      const message = tg.message(ADA.id, prompt.message_id);
      return message?.text.startsWith("✅") && message;
    }, 10_000);
    expect(edited.text).toBe("✅ Deploy: Production — @\u2060ada");
    expect(edited.reply_markup).toBeUndefined();
    const { body } = await call(`${second.url}/v1/questions/${created.body.id}`, "GET");
    expect(body.result).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"] } },
    });
    expect(botMessages(tg)).toEqual([[prompt.message_id, edited.text]]);
  }, 60_000);
});
