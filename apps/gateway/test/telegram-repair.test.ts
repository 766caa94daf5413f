import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createFakeTelegram, type FakeMessage, type FakeTelegram } from "@ask-user/testkit/telegram";
import { afterEach, describe, expect, it, vi } from "vitest";
import { call, deployInput, tempDir } from "./harness.ts";

const bin = fileURLToPath(new URL("../bin/ask-user.js", import.meta.url));
const children: ChildProcess[] = [];
const fakes: FakeTelegram[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) await kill9(child);
  for (const fake of fakes.splice(0)) await fake.close();
});

const ADA = { id: 42, first_name: "Ada", username: "ada", language_code: "en" };
const QUESTION = "Where should I deploy?";

/** Starts `ask-user start` as a real child process; resolves with its HTTP URL from the banner. */
async function startChild(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [bin, "start"], {
    env: {
      ...process.env,
      ASK_USER_PORT: "0",
      ASK_USER_LOG_LEVEL: "warn",
      ASK_USER_CLAIM_SECONDS: "1",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gateway did not start:\n${output}`)), 20_000);
    child.stdout?.on("data", (chunk) => {
      output += chunk;
      const match = /HTTP API\s+(http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once("exit", (code) => reject(new Error(`gateway exited with ${code}:\n${output}`)));
  });
  return { child, url };
}

async function kill9(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}

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
