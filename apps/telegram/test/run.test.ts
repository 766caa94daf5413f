import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AskUserBroker, createAskUser, createMemoryStore } from "@ask-user/core";
import { Api } from "grammy";
import { describe, expect, it } from "vitest";
import { serveHandler } from "../src/http-server.ts";
import { main } from "../src/main.ts";
import { type RunningTelegram, readTelegramEnv, runTelegram } from "../src/run.ts";
import { ADA, DEPLOY, fake, memoryLogger, onCleanup, SECRET } from "./harness.ts";

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function run(
  env: Record<string, string>,
  options: { listen?: boolean; logger?: ReturnType<typeof memoryLogger> } = {},
): Promise<{ running: RunningTelegram; broker: AskUserBroker }> {
  let broker: AskUserBroker | undefined;
  const running = await runTelegram({
    env,
    broker: () => broker as AskUserBroker,
    logger: options.logger ?? memoryLogger(),
    ...(options.listen === undefined ? {} : { listen: options.listen }),
  });
  broker = createAskUser({ store: createMemoryStore(), channels: [running.channel], logger: memoryLogger() });
  const ready = broker;
  onCleanup(async () => {
    await running.stop();
    await ready.close();
  });
  return { running, broker };
}

describe("runTelegram", () => {
  it("refuses an incomplete or malformed environment with one clear message", () => {
    expect(() => readTelegramEnv({})).toThrow(/TELEGRAM_BOT_TOKEN is required/);
    expect(() =>
      readTelegramEnv({ TELEGRAM_BOT_TOKEN: "1:x", TELEGRAM_WEBHOOK_URL: "https://x.dev/tg" }),
    ).toThrow(/TELEGRAM_WEBHOOK_URL and TELEGRAM_WEBHOOK_SECRET together/);
    expect(() =>
      readTelegramEnv({
        TELEGRAM_BOT_TOKEN: "1:x",
        TELEGRAM_WEBHOOK_URL: "https://x.dev/tg",
        TELEGRAM_WEBHOOK_SECRET: "a b",
      }),
    ).toThrow(/TELEGRAM_WEBHOOK_SECRET must be/);
    expect(
      readTelegramEnv({ TELEGRAM_BOT_TOKEN: "1:x", TELEGRAM_API_ROOT: "http://127.0.0.1:9/" }).apiRoot,
    ).toBe("http://127.0.0.1:9");
  });

  it("runs with long polling from the environment", async () => {
    const tg = await fake();
    const { running, broker } = await run({
      TELEGRAM_BOT_TOKEN: tg.token,
      TELEGRAM_API_ROOT: `${tg.apiRoot}/`,
    });
    expect(running.describe).toBe("telegram (@ask_user_test_bot, long polling)");
    const ada = tg.user(ADA);
    const record = await broker.create(DEPLOY, {
      target: { channel: "telegram", conversation: String(ADA.id) },
    });
    const query = ada.press(ADA.id, Number(record.deliveries[0]?.messageId), "Canary");
    expect(await ada.waitForAnswer(query)).toMatchObject({ text: "Recorded: Canary" });
    await running.stop();
    expect(running.bot.isRunning()).toBe(false);
  });

  it("hands unhandled taps to the host's handlers first, and answers only those nobody answered", async () => {
    const tg = await fake();
    let broker: AskUserBroker | undefined;
    const running = await runTelegram({
      env: { TELEGRAM_BOT_TOKEN: tg.token, TELEGRAM_API_ROOT: tg.apiRoot },
      broker: () => broker as AskUserBroker,
      logger: memoryLogger(),
      handlers: (bot) => bot.callbackQuery("host:ping", (ctx) => ctx.answerCallbackQuery({ text: "pong" })),
    });
    broker = createAskUser({ store: createMemoryStore(), channels: [running.channel] });
    const ready = broker;
    onCleanup(async () => {
      await running.stop();
      await ready.close();
    });
    const menu = await running.bot.api.sendMessage(ADA.id, "Menu", {
      reply_markup: {
        inline_keyboard: [
          [{ text: "Ping", callback_data: "host:ping" }],
          [{ text: "Old", callback_data: "old" }],
        ],
      },
    });
    const ada = tg.user(ADA);

    const ping = ada.press(ADA.id, menu.message_id, "Ping");
    expect(await ada.waitForAnswer(ping)).toMatchObject({ text: "pong" });
    const old = ada.press(ADA.id, menu.message_id, "Old");
    expect(await ada.waitForAnswer(old)).toEqual({ callback_query_id: old, show_alert: false });
    expect(tg.calls.filter((call) => call.method === "answerCallbackQuery" && call.error)).toEqual([]);
  });

  it("runs a webhook on a port of its own with listen (the standalone runner) and refuses requests without the secret", async () => {
    const tg = await fake();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/hooks/telegram`;
    const { running, broker } = await run(
      {
        TELEGRAM_BOT_TOKEN: tg.token,
        TELEGRAM_API_ROOT: tg.apiRoot,
        TELEGRAM_WEBHOOK_URL: url,
        TELEGRAM_WEBHOOK_SECRET: SECRET,
        TELEGRAM_WEBHOOK_PORT: String(port),
      },
      { listen: true },
    );
    expect(running.describe).toBe(
      `telegram (@ask_user_test_bot, webhook http://127.0.0.1:${port}/hooks/telegram → 127.0.0.1:${port})`,
    );
    expect(await running.bot.api.getWebhookInfo()).toMatchObject({ url });

    const post = (path: string, secret?: string) =>
      fetch(`http://127.0.0.1:${port}${path}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(secret ? { "x-telegram-bot-api-secret-token": secret } : {}),
        },
        body: JSON.stringify({
          update_id: 1,
          message: { message_id: 1, date: 1, chat: { id: 1, type: "private" }, text: "x" },
        }),
      });
    expect((await post("/hooks/telegram", "wrong")).status).toBe(401);
    expect((await post("/hooks/telegram")).status).toBe(401);
    expect((await post("/elsewhere", SECRET)).status).toBe(404);
    expect((await fetch(url)).status).toBe(405);

    const ada = tg.user(ADA);
    const record = await broker.create(DEPLOY, {
      target: { channel: "telegram", conversation: String(ADA.id) },
    });
    const query = ada.press(ADA.id, Number(record.deliveries[0]?.messageId), "Production");
    expect(await ada.waitForAnswer(query)).toMatchObject({ text: "Recorded: Production" });

    await running.stop();
    await expect(fetch(url, { method: "POST" })).rejects.toThrow();
  });

  it("opens no port in webhook mode without listen: the host mounts the returned handler at /channels/telegram", async () => {
    const tg = await fake();
    let running: RunningTelegram | undefined;
    // The host (the gateway in production): its own server, handing every request to the handler.
    const host = await serveHandler((request) => (running?.webhook ?? notMounted)(request), {
      paths: ["/channels/telegram"],
      host: "127.0.0.1",
      port: 0,
      logger: memoryLogger(),
      name: "host",
    });
    onCleanup(() => host.close());
    const ignoredPort = await freePort();
    const logger = memoryLogger();
    const started = await run(
      {
        TELEGRAM_BOT_TOKEN: tg.token,
        TELEGRAM_API_ROOT: tg.apiRoot,
        TELEGRAM_WEBHOOK_URL: `http://127.0.0.1:${host.port}`, // a base URL: /channels/telegram is added
        TELEGRAM_WEBHOOK_SECRET: SECRET,
        TELEGRAM_WEBHOOK_PORT: String(ignoredPort),
      },
      { logger },
    );
    running = started.running;
    const url = `http://127.0.0.1:${host.port}/channels/telegram`;
    expect(running.describe).toBe(`telegram (@ask_user_test_bot, webhook ${url})`);
    expect(await running.bot.api.getWebhookInfo()).toMatchObject({ url });
    await expect(
      fetch(`http://127.0.0.1:${ignoredPort}/channels/telegram`, { method: "POST" }),
    ).rejects.toThrow();
    expect(logger.lines).toEqual([
      expect.stringMatching(/^warn TELEGRAM_WEBHOOK_PORT apply to the standalone runner only/),
    ]);
    logger.lines.length = 0;

    const webhook = running.webhook as NonNullable<RunningTelegram["webhook"]>;
    const update = JSON.stringify({
      update_id: 7,
      message: { message_id: 1, date: 1, chat: { id: ADA.id, type: "private" }, from: ADA, text: "x" },
    });
    const wrong = await webhook(
      new Request(url, {
        method: "POST",
        headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": "wrong" },
        body: update,
      }),
    );
    expect(wrong.status).toBe(401);
    expect((await webhook(new Request(url))).status).toBe(405);

    const ada = tg.user(ADA);
    const record = await started.broker.create(DEPLOY, {
      target: { channel: "telegram", conversation: String(ADA.id) },
    });
    const query = ada.press(ADA.id, Number(record.deliveries[0]?.messageId), "Canary");
    expect(await ada.waitForAnswer(query)).toMatchObject({ text: "Recorded: Canary" });
    // The tap came through the host's port (the fake records the webhook's answer once it has it).
    expect(await tg.waitUntil(() => tg.deliveries.at(-1))).toMatchObject({ attempt: 1, status: 200 });
    expect(logger.lines).toEqual([]);
  });
});

async function notMounted(): Promise<Response> {
  return new Response(null, { status: 503 });
}

describe("the standalone runner", () => {
  async function runner(argv: string[], stdin: string, extraEnv: Record<string, string> = {}) {
    const tg = await fake();
    const dir = await mkdtemp(join(tmpdir(), "ask-user-telegram-"));
    onCleanup(() => rm(dir, { recursive: true, force: true }));
    const out: string[] = [];
    const err: string[] = [];
    const env = {
      TELEGRAM_BOT_TOKEN: tg.token,
      TELEGRAM_API_ROOT: tg.apiRoot,
      ASK_USER_DB: join(dir, "t.db"),
      ...extraEnv,
    };
    const exit = main(argv, env, {
      stdout: { write: (text: string) => out.push(text) },
      stderr: { write: (text: string) => err.push(text) },
      stdin: (async function* () {
        yield Buffer.from(stdin);
      })(),
      onInterrupt: () => () => undefined,
    });
    return { tg, exit, out, err };
  }

  it("asks the question in the file, prints the answer and exits 0", async () => {
    const { tg, exit, out } = await runner(["--target", String(ADA.id), "-"], JSON.stringify(DEPLOY));
    const prompt = await tg.waitUntil(() => tg.messages(ADA.id).find((m) => m.from.is_bot));
    tg.user(ADA).press(ADA.id, prompt.message_id, "Production");
    expect(await exit).toBe(0);
    expect(JSON.parse(out.join(""))).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"] } },
    });
    expect(tg.message(ADA.id, prompt.message_id)?.reply_markup).toBeUndefined();
  });

  it("serves webhook mode on a port of its own, at the URL's path", async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/channels/telegram`;
    const { tg, exit, err } = await runner(["--target", String(ADA.id), "-"], JSON.stringify(DEPLOY), {
      TELEGRAM_WEBHOOK_URL: url,
      TELEGRAM_WEBHOOK_SECRET: SECRET,
      TELEGRAM_WEBHOOK_PORT: String(port),
    });
    const prompt = await tg.waitUntil(() => tg.messages(ADA.id).find((m) => m.from.is_bot));
    expect(err.join("")).toContain(`webhook ${url} → 127.0.0.1:${port}`);
    tg.user(ADA).press(ADA.id, prompt.message_id, "Canary");
    expect(await exit).toBe(0);
    expect(await tg.waitUntil(() => tg.deliveries[0])).toMatchObject({ attempt: 1, status: 200 });
    expect(tg.deliveries).toHaveLength(1);
    expect(tg.calls.filter((call) => call.method === "getUpdates")).toEqual([]);
  });

  it("answers a tap on another bot's button, so the person's client stops spinning", async () => {
    const { tg, exit } = await runner(["--target", String(ADA.id), "-"], JSON.stringify(DEPLOY));
    const prompt = await tg.waitUntil(() => tg.messages(ADA.id).find((m) => m.from.is_bot));
    const foreign = await new Api(tg.token, { apiRoot: tg.apiRoot }).sendMessage(ADA.id, "Old menu", {
      reply_markup: { inline_keyboard: [[{ text: "Pizza", callback_data: "menu:pizza" }]] },
    });
    const ada = tg.user(ADA);

    const query = ada.press(ADA.id, foreign.message_id, "Pizza");
    expect(await ada.waitForAnswer(query)).toEqual({ callback_query_id: query, show_alert: false });

    ada.press(ADA.id, prompt.message_id, "Skip");
    expect(await exit).toBe(3);
  });

  it("exits 3 when the person skips, and 2 for a bad command line or bad input", async () => {
    const { tg, exit, out } = await runner(["--target", String(ADA.id), "-"], JSON.stringify(DEPLOY));
    const prompt = await tg.waitUntil(() => tg.messages(ADA.id).find((m) => m.from.is_bot));
    tg.user(ADA).press(ADA.id, prompt.message_id, "Skip");
    expect(await exit).toBe(3);
    expect(JSON.parse(out.join(""))).toEqual({ status: "no_answer", reason: "skipped" });

    expect(await (await runner(["-"], "{}")).exit).toBe(2);
    const invalid = await runner(["--target", "42", "-"], JSON.stringify({ questions: [] }));
    expect(await invalid.exit).toBe(2);
    expect(invalid.err.join("")).toMatch(/questions/);
  });
});
