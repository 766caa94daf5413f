import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { createAskUser, createMemoryStore } from "@ask-user/core";
import { ChannelError, createMemoryCoordination, InvalidChannelConfigError } from "@ask-user/core/channel";
import type { FakeTelegram } from "@ask-user/testkit/telegram";
import { Api } from "grammy";
import { describe, expect, it } from "vitest";
import { channelPlugin } from "../src/plugin.ts";
import { ADA, DEPLOY, fake, memoryLogger, onCleanup, SECRET } from "./harness.ts";
import { freePort, serve } from "./serve.ts";

const toAda = { target: { channel: "telegram", conversation: String(ADA.id) } };

/** The plugin as a host runs it: readConfig, create; `initialize` is the test's to call. */
async function created(env: Record<string, string>, logger = memoryLogger()) {
  const config = channelPlugin.readConfig(env);
  const instance = await channelPlugin.create({
    config,
    logger,
    coordination: createMemoryCoordination(),
    instanceId: "test",
  });
  const broker = createAskUser({ store: createMemoryStore(), channels: [instance], logger });
  onCleanup(async () => {
    await instance.stop();
    await broker.close();
  });
  return { instance, broker, logger };
}

function problemsOf(env: Record<string, string>): string[] {
  try {
    channelPlugin.readConfig(env);
  } catch (error) {
    if (error instanceof InvalidChannelConfigError) return error.problems;
    throw error;
  }
  return [];
}

/** Every module `file` imports statically, followed through the package's own files. */
async function staticImports(file: string, seen = new Set<string>()): Promise<Set<string>> {
  const source = await readFile(file, "utf8");
  const specifiers = [...source.matchAll(/^\s*(?:import|export)\s(?:[^;]*?\sfrom\s)?"([^"]+)";/gm)];
  for (const [, specifier = ""] of specifiers) {
    if (!specifier.startsWith(".")) {
      seen.add(specifier);
      continue;
    }
    const path = join(dirname(file), specifier);
    if (seen.has(path)) continue;
    seen.add(path);
    await staticImports(path, seen);
  }
  return seen;
}

/** A tap update as Telegram POSTs it to the webhook. */
function webhookRequest(url: string, secret: string, updateId = 1): Request {
  return new Request(url, {
    method: "POST",
    headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": secret },
    body: JSON.stringify({
      update_id: updateId,
      message: { message_id: 1, date: 1, chat: { id: ADA.id, type: "private" }, from: ADA, text: "x" },
    }),
  });
}

const getUpdatesCalls = (tg: FakeTelegram) => tg.calls.filter((call) => call.method === "getUpdates").length;

describe("channelPlugin: what a host reads before creating it", () => {
  it("names the channel and every variable it reads; a token turns it on", () => {
    expect([channelPlugin.name, channelPlugin.title]).toEqual(["telegram", "Telegram"]);
    expect(channelPlugin.variables.map((v) => [v.name, v.required === true, v.secret === true])).toEqual([
      ["TELEGRAM_BOT_TOKEN", true, true],
      ["TELEGRAM_API_ROOT", false, false],
      ["TELEGRAM_WEBHOOK_URL", false, false],
      ["TELEGRAM_WEBHOOK_SECRET", false, true],
      ["TELEGRAM_WEBHOOK_HOST", false, false],
      ["TELEGRAM_WEBHOOK_PORT", false, false],
    ]);
    expect(channelPlugin.enabled({})).toBe(false);
    expect(channelPlugin.enabled({ TELEGRAM_BOT_TOKEN: "  " })).toBe(false);
    const { enabled } = channelPlugin; // hosts may call it unbound
    expect(enabled({ TELEGRAM_BOT_TOKEN: "1:x" })).toBe(true);
  });

  it("reads trimmed values: the API root without its trailing /, a webhook URL without a path at /channels/telegram", () => {
    expect(
      channelPlugin.readConfig({ TELEGRAM_BOT_TOKEN: " 1:x ", TELEGRAM_API_ROOT: "http://127.0.0.1:9/" }),
    ).toEqual({ token: "1:x", apiRoot: "http://127.0.0.1:9" });
    expect(
      channelPlugin.readConfig({
        TELEGRAM_BOT_TOKEN: "1:x",
        TELEGRAM_WEBHOOK_URL: "https://gw.example.com",
        TELEGRAM_WEBHOOK_SECRET: SECRET,
        TELEGRAM_WEBHOOK_HOST: "0.0.0.0",
      }).webhook,
    ).toEqual({
      url: "https://gw.example.com/channels/telegram",
      secret: SECRET,
      host: "0.0.0.0",
      port: 8443,
    });
  });

  it("lists every problem with the environment at once, in one InvalidChannelConfigError", () => {
    expect(() => channelPlugin.readConfig({})).toThrow(InvalidChannelConfigError);
    expect(() => channelPlugin.readConfig({})).toThrow(/^telegram: TELEGRAM_BOT_TOKEN is required/);
    expect(
      problemsOf({
        TELEGRAM_API_ROOT: "not a url",
        TELEGRAM_WEBHOOK_URL: "ftp://x.dev/tg",
        TELEGRAM_WEBHOOK_PORT: "99999",
      }),
    ).toEqual([
      "TELEGRAM_BOT_TOKEN is required (the token @BotFather gave you).",
      'TELEGRAM_API_ROOT is not a URL: "not a url".',
      "Set TELEGRAM_WEBHOOK_URL and TELEGRAM_WEBHOOK_SECRET together (webhook mode), or neither.",
      'TELEGRAM_WEBHOOK_URL is not an http(s) URL: "ftp://x.dev/tg".',
      'TELEGRAM_WEBHOOK_PORT is not a port number: "99999".',
    ]);
    expect(
      problemsOf({
        TELEGRAM_BOT_TOKEN: "1:x",
        TELEGRAM_WEBHOOK_URL: "https://x.dev/tg",
        TELEGRAM_WEBHOOK_SECRET: "a b",
      }),
    ).toEqual(["TELEGRAM_WEBHOOK_SECRET must be 1-256 characters of A-Z, a-z, 0-9, _ and -."]);
  });

  it("accepts chat ids and forum topics as conversations, and nothing else", () => {
    expect(channelPlugin.parseConversation("-1001234567890:42")).toEqual({
      chatId: -1001234567890,
      threadId: 42,
    });
    for (const bad of ["@somewhere", "", "0", "12:0", "x"])
      expect(channelPlugin.parseConversation(bad)).toBeUndefined();
  });

  it("loads grammY only when a channel is created: the plugin module imports core and light modules", async () => {
    const imports = await staticImports(join(import.meta.dirname, "../src/plugin.ts"));
    const packages = [...imports].filter((specifier) => !specifier.startsWith("/"));
    expect(packages).toEqual(["@ask-user/core/channel"]);
    expect([...imports].filter((path) => path.startsWith("/")).map((path) => path.split("/src/")[1])).toEqual(
      ["config.ts", "limits.ts", "conversation.ts"],
    );
  });
});

describe("channelPlugin: a created channel", () => {
  it("long polls from initialize on, answers taps, and stop() ends polling (safe twice)", async () => {
    const tg = await fake();
    const { instance, broker } = await created({
      TELEGRAM_BOT_TOKEN: tg.token,
      TELEGRAM_API_ROOT: `${tg.apiRoot}/`,
    });
    expect(instance.describe).toBe("telegram (@ask_user_test_bot, long polling)");
    expect(instance.capabilities).toEqual({
      buttons: true,
      edit: true,
      privateNotices: false,
      maxButtons: 100,
      maxButtonLabel: 64,
      ingress: "polling",
    });
    expect([instance.handleWebhook, instance.listen]).toEqual([undefined, undefined]);
    expect(getUpdatesCalls(tg)).toBe(0); // nothing is received before initialize

    await instance.start(broker);
    const ada = tg.user(ADA);
    const record = await broker.create(DEPLOY, toAda);
    const query = ada.press(ADA.id, Number(record.deliveries[0]?.messageId), "Canary");
    expect(await ada.waitForAnswer(query)).toMatchObject({ text: "Recorded: Canary" });
    await expect(instance.start(broker)).rejects.toThrow(/cannot be started when running/);

    await instance.stop();
    const polls = getUpdatesCalls(tg);
    await new Promise((resolve) => setTimeout(resolve, 1500)); // longer than the fake holds a poll
    expect(getUpdatesCalls(tg)).toBe(polls);
    await instance.stop();
  });

  it("answers a tap on another bot's button without text, so the person's client stops spinning", async () => {
    const tg = await fake();
    const { instance, broker } = await created({
      TELEGRAM_BOT_TOKEN: tg.token,
      TELEGRAM_API_ROOT: tg.apiRoot,
    });
    await instance.start(broker);
    const foreign = await new Api(tg.token, { apiRoot: tg.apiRoot }).sendMessage(ADA.id, "Old menu", {
      reply_markup: { inline_keyboard: [[{ text: "Pizza", callback_data: "menu:pizza" }]] },
    });
    const ada = tg.user(ADA);
    const query = ada.press(ADA.id, foreign.message_id, "Pizza");
    expect(await ada.waitForAnswer(query)).toEqual({ callback_query_id: query, show_alert: false });
    expect(tg.calls.filter((call) => call.method === "answerCallbackQuery" && call.error)).toEqual([]);
  });

  it("refuses a token Telegram does not know when created, as a ChannelError", async () => {
    const tg = await fake();
    const config = channelPlugin.readConfig({
      TELEGRAM_BOT_TOKEN: "999:nope",
      TELEGRAM_API_ROOT: tg.apiRoot,
    });
    const creating = channelPlugin.create({
      config,
      logger: memoryLogger(),
      coordination: createMemoryCoordination(),
      instanceId: "test",
    });
    await expect(creating).rejects.toThrow(ChannelError);
    await expect(creating).rejects.toMatchObject({
      failure: "refused",
      message: "Telegram refused getMe: 401 Unauthorized",
    });
  });
});

describe("channelPlugin: webhook mode", () => {
  /** Webhook mode served where `listen` says, as the standalone runner does. */
  async function webhookMode(tg: FakeTelegram, url: string, port: number) {
    const env = {
      TELEGRAM_BOT_TOKEN: tg.token,
      TELEGRAM_API_ROOT: tg.apiRoot,
      TELEGRAM_WEBHOOK_URL: url,
      TELEGRAM_WEBHOOK_SECRET: SECRET,
      TELEGRAM_WEBHOOK_PORT: String(port),
    };
    const { instance, broker } = await created(env);
    const { handleWebhook, listen } = instance;
    if (!handleWebhook || !listen) throw new Error("no webhook in webhook mode");
    const host = await serve(handleWebhook, listen.paths, listen.port);
    onCleanup(() => host.close());
    return { instance, broker };
  }

  it("answers 503 with Retry-After before initialize and after stop, and serves Telegram in between", async () => {
    const tg = await fake();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/hooks/telegram`;
    const { instance, broker } = await webhookMode(tg, url, port);
    expect(instance.describe).toBe(`telegram (@ask_user_test_bot, webhook ${url})`);
    expect(instance.listen).toEqual({ host: "127.0.0.1", port, paths: ["/hooks/telegram"] });
    expect(instance.capabilities.ingress).toBe("webhook");
    const api = new Api(tg.token, { apiRoot: tg.apiRoot });
    expect((await api.getWebhookInfo()).url).toBe(""); // not registered before initialize

    const early = await fetch(webhookRequest(url, SECRET));
    expect([early.status, early.headers.get("retry-after")]).toEqual([503, "1"]);
    expect(await early.json()).toMatchObject({ ok: false });

    await instance.start(broker);
    expect(await api.getWebhookInfo()).toMatchObject({ url, allowed_updates: ["message", "callback_query"] });
    expect((await fetch(webhookRequest(url, "wrong"))).status).toBe(401);
    expect((await fetch(url)).status).toBe(405);
    expect((await fetch(`http://127.0.0.1:${port}/elsewhere`, { method: "POST" })).status).toBe(404);

    const ada = tg.user(ADA);
    const record = await broker.create(DEPLOY, toAda);
    const query = ada.press(ADA.id, Number(record.deliveries[0]?.messageId), "Production");
    expect(await ada.waitForAnswer(query)).toMatchObject({ text: "Recorded: Production" });
    expect(await tg.waitUntil(() => tg.deliveries.at(-1))).toMatchObject({ attempt: 1, status: 200 });
    expect(tg.calls.filter((call) => call.method === "getUpdates")).toEqual([]);

    await instance.stop();
    expect((await fetch(webhookRequest(url, SECRET, 2))).status).toBe(503);
  });

  it("registers a URL given without a path at /channels/telegram, where the gateway mounts the handler", async () => {
    const tg = await fake();
    const port = await freePort();
    const { instance } = await webhookMode(tg, `http://127.0.0.1:${port}`, port);
    const url = `http://127.0.0.1:${port}/channels/telegram`;
    expect(instance.describe).toBe(`telegram (@ask_user_test_bot, webhook ${url})`);
    expect(instance.listen?.paths).toEqual(["/channels/telegram"]);
  });
});
