import { channelPlugin } from "@ask-user/telegram/plugin";
import { createFakeTelegram, type FakeTelegram } from "@ask-user/testkit/telegram";
import { describe, expect, it } from "vitest";
import { freePort, onCleanup, run } from "./helpers.ts";

const ADA = { id: 42, first_name: "Ada", username: "ada", language_code: "en" };
const SECRET = "test-secret_123";

async function fake(): Promise<FakeTelegram> {
  const tg = await createFakeTelegram({ botUsername: "ask_user_test_bot" });
  onCleanup(() => tg.close());
  return tg;
}

const envOf = (tg: FakeTelegram) => ({ TELEGRAM_BOT_TOKEN: tg.token, TELEGRAM_API_ROOT: tg.apiRoot });
const prompt = (tg: FakeTelegram) => tg.waitUntil(() => tg.messages(ADA.id).find((m) => m.from.is_bot));

describe("ask-user-channel telegram", () => {
  it("asks in Telegram alone with long polling, prints the answer and exits 0", async () => {
    const tg = await fake();
    const runner = await run(channelPlugin, ["--target", String(ADA.id), "-"], envOf(tg));
    const message = await prompt(tg);
    expect(JSON.stringify(message.reply_markup)).toContain('"text":"Production"');
    await tg.user(ADA).press(ADA.id, message.message_id, "Production");
    expect(await runner.exit).toBe(0);
    expect(JSON.parse(runner.out())).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"] } },
    });
    await tg.waitUntil(() => tg.message(ADA.id, message.message_id)?.reply_markup === undefined);
    expect(tg.message(ADA.id, message.message_id)?.text).toContain("Production");
    expect(runner.err()).toBe("telegram (@ask_user_test_bot, long polling): waiting for an answer in 42…\n");
  });

  it("serves webhook mode on a port of its own, at the URL's path, and never polls", async () => {
    const tg = await fake();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/channels/telegram`;
    const runner = await run(channelPlugin, ["--target", String(ADA.id), "-"], {
      ...envOf(tg),
      TELEGRAM_WEBHOOK_URL: url,
      TELEGRAM_WEBHOOK_SECRET: SECRET,
      TELEGRAM_WEBHOOK_PORT: String(port),
    });
    const message = await prompt(tg);
    expect(runner.err()).toContain(`telegram: the webhook is served at ${url}\n`);
    await tg.user(ADA).press(ADA.id, message.message_id, "Staging (Recommended)");
    expect(await runner.exit).toBe(0);
    expect(JSON.parse(runner.out()).answers.answers).toEqual({ deploy_target: ["Staging (Recommended)"] });
    expect(await tg.waitUntil(() => tg.deliveries[0])).toMatchObject({ attempt: 1, status: 200 });
    expect(tg.deliveries).toHaveLength(1);
    expect(tg.calls.filter((call) => call.method === "getUpdates")).toEqual([]);
  });

  it("exits 3 when the person skips", async () => {
    const tg = await fake();
    const runner = await run(channelPlugin, ["--target", String(ADA.id), "-"], envOf(tg));
    await tg.user(ADA).press(ADA.id, (await prompt(tg)).message_id, "Skip");
    expect(await runner.exit).toBe(3);
    expect(JSON.parse(runner.out())).toEqual({ status: "no_answer", reason: "skipped" });
  });

  it("cancels the question on Ctrl-C and exits 130", async () => {
    const tg = await fake();
    const runner = await run(channelPlugin, ["--target", String(ADA.id), "-"], envOf(tg));
    const message = await prompt(tg);
    runner.interrupt();
    expect(await runner.exit).toBe(130);
    expect(JSON.parse(runner.out())).toEqual({ status: "no_answer", reason: "cancelled" });
    await tg.waitUntil(() => tg.message(ADA.id, message.message_id)?.text.startsWith("✖"));
  });

  it("exits 2 for a bad target or bad input and 1 without a token, before calling Telegram", async () => {
    const tg = await fake();
    const target = await run(channelPlugin, ["--target", "ada", "-"], envOf(tg));
    expect(await target.exit).toBe(2);
    expect(target.err()).toMatch(
      /^--target ada is not a Telegram conversation\.\n\nUsage: ask-user-channel telegram /,
    );
    const input = await run(
      channelPlugin,
      ["--target", "42", "-"],
      envOf(tg),
      JSON.stringify({ questions: [] }),
    );
    expect(await input.exit).toBe(2);
    expect(input.err()).toMatch(/^stdin is not valid ask_user input:\n- questions: /);
    const token = await run(channelPlugin, ["--target", "42", "-"], {});
    expect(await token.exit).toBe(1);
    expect(token.err()).toMatch(
      /^ask-user telegram: invalid configuration:\n- TELEGRAM_BOT_TOKEN is required/,
    );
    expect(tg.calls).toEqual([]);
  });

  it("lists the Telegram variables in its usage", async () => {
    const help = await run(channelPlugin, ["--help"]);
    expect(await help.exit).toBe(0);
    const lines = help.out().split("\n");
    for (const { name, description } of channelPlugin.variables) {
      expect(lines.find((line) => line.startsWith(`  ${name} `))).toContain(description);
    }
    expect(lines.find((line) => line.startsWith("  TELEGRAM_BOT_TOKEN "))).toMatch(/\(required\)$/);
    expect(help.out()).toContain("(default .ask-user/telegram.db)");
  });
});
