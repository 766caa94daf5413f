import { createAskUser, createMemoryStore, type QuestionStore } from "@ask-user/core";
import type { AskUserBroker, ChannelLogger, Coordination } from "@ask-user/core/channel";
import type { FakeTelegram } from "@ask-user/testkit/telegram";
import { Api, Bot } from "grammy";
import { describe, expect, it, vi } from "vitest";
import { create, createTelegramChannel, type TelegramAdapter } from "../src/adapter.ts";
import { startPolling } from "../src/ingress/polling.ts";
import { ALLOWED_UPDATES } from "../src/limits.ts";
import { channelPlugin } from "../src/plugin.ts";
import { ADA, botMessages, DEPLOY, fake, onCleanup, reacted, SECRET, visible } from "./harness.ts";
import { freePort, serve } from "./serve.ts";

const RELEASE = {
  questions: [
    ...DEPLOY.questions,
    {
      id: "notify",
      header: "Notify",
      question: "Tell whom?",
      options: [{ label: "Team" }, { label: "Nobody" }],
    },
  ],
};

/** A logger that keeps every line, info included. */
function linesLogger(): ChannelLogger & { lines: string[] } {
  const lines: string[] = [];
  const keep = (level: string) => (details: Record<string, unknown>, message: string) =>
    lines.push(`${level} ${message} ${JSON.stringify(details)}`);
  return { lines, info: keep("info"), warn: keep("warn"), error: keep("error") };
}

/** A coordination that fails every call once `broken` is set: an instance cut off from the store. */
function breakable(store: QuestionStore): Coordination & { broken: boolean } {
  const gate = <T>(call: () => Promise<T>) =>
    wrapper.broken ? Promise.reject(new Error("store unreachable")) : call();
  const wrapper = {
    broken: false,
    firstSeen: (key: string, ttlMs: number) => gate(() => store.firstSeen(key, ttlMs)),
    acquireLease: (name: string, holder: string, ttlMs: number) =>
      gate(() => store.acquireLease(name, holder, ttlMs)),
    releaseLease: (name: string, holder: string) => gate(() => store.releaseLease(name, holder)),
  };
  return wrapper;
}

interface Instance {
  running: TelegramAdapter;
  broker: AskUserBroker;
  logger: ReturnType<typeof linesLogger>;
}

/**
 * One instance (the plugin's instance + its own broker) over the shared store; in webhook mode served
 * on its `listen` port, as the standalone runner does.
 */
async function instance(
  tg: FakeTelegram,
  store: QuestionStore,
  options: { id: string; coordination?: Coordination; env?: Record<string, string> },
): Promise<Instance> {
  const logger = linesLogger();
  const env = { TELEGRAM_BOT_TOKEN: tg.token, TELEGRAM_API_ROOT: tg.apiRoot, ...options.env };
  const config = { ...channelPlugin.readConfig(env), polling: { retryDelayMs: 100 } };
  const running = await create({
    config,
    logger,
    coordination: options.coordination ?? store,
    instanceId: options.id,
  });
  const broker = createAskUser({ store, channels: [running], logger });
  await running.start(broker);
  const { listen, handleWebhook } = running;
  const server = listen && handleWebhook ? await serve(handleWebhook, listen.paths, listen.port) : undefined;
  onCleanup(async () => {
    await running.stop();
    await server?.close();
    await broker.close();
  });
  return { running, broker, logger };
}

const conflicts = (tg: FakeTelegram) =>
  tg.calls.filter((call) => call.method === "getUpdates" && call.error?.error_code === 409);

/** 409s an instance got back (the fake also records one for a poll its caller had just abandoned). */
const conflictsSeen = (...instances: Instance[]) =>
  instances.flatMap((i) => i.logger.lines.filter((line) => line.includes("409")));

const toAda = { target: { channel: "telegram", conversation: String(ADA.id) } };

describe("several instances on one store, long polling", () => {
  it("lets exactly one poll; taps are answered once and each reply gets one notice", async () => {
    const tg = await fake();
    const store = createMemoryStore();
    const a = await instance(tg, store, { id: "a" });
    const b = await instance(tg, store, { id: "b" });
    expect([a.running.bot.isRunning(), b.running.bot.isRunning()]).toEqual([true, false]);
    expect(b.logger.lines).toEqual([
      expect.stringContaining("info another instance polls: this one sends and edits only"),
      expect.stringContaining("info telegram ready"),
    ]);

    const ada = tg.user(ADA);
    const deploy = await b.broker.create(DEPLOY, toAda); // sent by the instance that does not poll
    const query = ada.press(ADA.id, Number(deploy.deliveries[0]?.messageId), "Production");
    expect(await ada.waitForAnswer(query)).toMatchObject({ text: "Recorded: Production" });

    const release = await a.broker.create(RELEASE, toAda);
    const first = Number(release.deliveries[0]?.messageId);
    ada.sendText(ADA.id, "1: Canary");
    await tg.waitUntil(() => botMessages(tg, ADA.id, first).length === 1);
    const last = ada.sendText(ADA.id, "Team");
    expect(await reacted(tg, ADA.id, last.message_id)).toEqual(["👍"]);
    await new Promise((resolve) => setTimeout(resolve, 2_500)); // a few lease renewals later
    expect(botMessages(tg, ADA.id, first).map((m) => visible(m.text)?.split(".")[0])).toEqual([
      "Recorded: Deploy: Canary",
    ]);
    expect(tg.calls.filter((call) => call.method === "setMessageReaction")).toHaveLength(1);
    expect(tg.calls.filter((call) => call.method === "answerCallbackQuery")).toHaveLength(1);
    expect(conflicts(tg)).toEqual([]);
    expect([a.running.bot.isRunning(), b.running.bot.isRunning()]).toEqual([true, false]);
  }, 20_000);

  it("hands polling over within 10 s when the holder stops, and the other answers", async () => {
    const tg = await fake();
    const store = createMemoryStore();
    const a = await instance(tg, store, { id: "a" });
    const b = await instance(tg, store, { id: "b" });
    const deploy = await a.broker.create(DEPLOY, toAda);

    await a.running.stop();
    const stopped = Date.now();
    const ada = tg.user(ADA);
    const query = ada.press(ADA.id, Number(deploy.deliveries[0]?.messageId), "Canary");
    expect(await ada.waitForAnswer(query, 10_000)).toMatchObject({ text: "Recorded: Canary" });
    expect(Date.now() - stopped).toBeLessThan(10_000);
    expect(b.running.bot.isRunning()).toBe(true);
    expect(conflictsSeen(a, b)).toEqual([]);
  }, 20_000);

  it("hands polling over within 10 s when the holder is cut off from the store without releasing", async () => {
    const tg = await fake();
    const store = createMemoryStore();
    const cutOff = breakable(store);
    const a = await instance(tg, store, { id: "a", coordination: cutOff });
    const b = await instance(tg, store, { id: "b" });
    const deploy = await b.broker.create(DEPLOY, toAda);

    cutOff.broken = true;
    const broke = Date.now();
    await vi.waitFor(() => expect(a.running.bot.isRunning()).toBe(false), { timeout: 5_000 });
    const ada = tg.user(ADA);
    const query = ada.press(ADA.id, Number(deploy.deliveries[0]?.messageId), "Canary");
    expect(await ada.waitForAnswer(query, 10_000)).toMatchObject({ text: "Recorded: Canary" });
    expect(Date.now() - broke).toBeLessThan(10_000);
    expect([a.running.bot.isRunning(), b.running.bot.isRunning()]).toEqual([false, true]);
    expect(a.logger.lines).toContainEqual(expect.stringContaining("warn lost the polling lease"));
    expect(b.logger.lines).toContainEqual(
      expect.stringContaining("info this instance holds the polling lease"),
    );
    expect(conflictsSeen(a, b)).toEqual([]);
    expect(tg.calls.filter((call) => call.method === "answerCallbackQuery")).toHaveLength(1);
  }, 20_000);

  it("logs a 409 Conflict from getUpdates and keeps polling", async () => {
    const tg = await fake();
    const a = await instance(tg, createMemoryStore(), { id: "a" });
    const rogue = new Api(tg.token, { apiRoot: tg.apiRoot }); // a process polling without the store
    await tg.waitFor((call) => call.method === "getUpdates");
    expect(await rogue.getUpdates({ timeout: 0 })).toEqual([]);
    await tg.waitUntil(() => conflicts(tg).length === 1);

    const deploy = await a.broker.create(DEPLOY, toAda);
    const ada = tg.user(ADA);
    const query = ada.press(ADA.id, Number(deploy.deliveries[0]?.messageId), "Production");
    expect(await ada.waitForAnswer(query)).toMatchObject({ text: "Recorded: Production" });
    expect(a.running.bot.isRunning()).toBe(true);
    expect(a.logger.lines.filter((line) => line.includes("409"))).toEqual([
      expect.stringMatching(/^warn getUpdates was refused with 409 Conflict.*terminated by other getUpdates/),
    ]);
  });

  it("keeps polling after a 409 when it runs alone, without coordination (your own bot)", async () => {
    const tg = await fake();
    const logger = linesLogger();
    const bot = new Bot(tg.token, { client: { apiRoot: tg.apiRoot } });
    const telegram = createTelegramChannel({ bot, logger });
    const broker = createAskUser({ store: createMemoryStore(), channels: [telegram], logger });
    await telegram.start(broker);
    await bot.init();
    const polling = await startPolling(bot, { allowedUpdates: ALLOWED_UPDATES, logger, retryDelayMs: 100 });
    onCleanup(async () => {
      await polling.stop();
      await broker.close();
    });
    await tg.waitFor((call) => call.method === "getUpdates");
    await new Api(tg.token, { apiRoot: tg.apiRoot }).getUpdates({ timeout: 0 });
    await tg.waitUntil(() => conflicts(tg).length === 1);
    const deploy = await broker.create(DEPLOY, toAda);
    const ada = tg.user(ADA);
    const query = ada.press(ADA.id, Number(deploy.deliveries[0]?.messageId), "Canary");
    expect(await ada.waitForAnswer(query)).toMatchObject({ text: "Recorded: Canary" });
    await vi.waitFor(() =>
      expect(logger.lines.some((line) => line.startsWith("warn getUpdates"))).toBe(true),
    );
    expect(bot.isRunning()).toBe(true);
  });
});

describe("several instances on one store, webhook", () => {
  it("serves the webhook on every instance and takes no lease", async () => {
    const tg = await fake();
    const store = createMemoryStore();
    const leases: string[] = [];
    const watched: Coordination = {
      firstSeen: (key, ttlMs) => store.firstSeen(key, ttlMs),
      acquireLease: (name, holder, ttlMs) => {
        leases.push(name);
        return store.acquireLease(name, holder, ttlMs);
      },
      releaseLease: (name, holder) => store.releaseLease(name, holder),
    };
    const port = await freePort();
    const env = {
      TELEGRAM_WEBHOOK_URL: `http://127.0.0.1:${port}/telegram`,
      TELEGRAM_WEBHOOK_SECRET: SECRET,
      TELEGRAM_WEBHOOK_PORT: String(port),
    };
    const a = await instance(tg, store, { id: "a", coordination: watched, env });
    const deploy = await a.broker.create(DEPLOY, toAda);
    const ada = tg.user(ADA);
    const query = ada.press(ADA.id, Number(deploy.deliveries[0]?.messageId), "Canary");
    expect(await ada.waitForAnswer(query)).toMatchObject({ text: "Recorded: Canary" });
    expect(a.running.describe).toMatch(/webhook/);
    expect(leases).toEqual([]);
    expect(tg.calls.filter((call) => call.method === "getUpdates")).toEqual([]);
  });
});
