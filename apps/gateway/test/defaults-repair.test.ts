/**
 * Repair at start with the DEFAULT settings (no ASK_USER_CLAIM_SECONDS, no ASK_USER_INSTANCE_ID): a
 * gateway killed while sending a prompt or editing a summary, restarted at once, finishes that work
 * within 10 s of being ready — not when its old 30 s claim runs out.
 */
import type { ChildProcess } from "node:child_process";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { type RedisServer, startRedisServer } from "@ask-user/testkit/redis";
import { createFakeTelegram, type FakeTelegram } from "@ask-user/testkit/telegram";
import { afterEach, describe, expect, it } from "vitest";
import { kill9, startGatewayProcess } from "../src/testing.ts";
import { call, deployInput, tempDir } from "./harness.ts";

const children: ChildProcess[] = [];
const fakes: FakeTelegram[] = [];
const servers: Server[] = [];
const redisServers: Array<RedisServer & { stop(): Promise<void> }> = [];
afterEach(async () => {
  for (const child of children.splice(0)) await kill9(child);
  for (const fake of fakes.splice(0)) await fake.close();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  for (const redis of redisServers.splice(0)) await redis.stop();
});

/** A gateway process with nothing but `env` set; resolves once it is ready (its banner shows the URL). */
async function start(env: Record<string, string>) {
  const gateway = await startGatewayProcess(env, { timeoutMs: 20_000 });
  children.push(gateway.child);
  return { ...gateway, readyAt: Date.now() };
}

/** Polls `check` every 50 ms until it is truthy; how long that took from `since` (fails after 20 s). */
async function within<T>(
  check: () => T | undefined | false,
  since: number,
): Promise<{ value: T; ms: number }> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = check();
    if (value) return { value, ms: Date.now() - since };
    if (Date.now() > deadline) throw new Error("not done within 20 s");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const ADA = { id: 42, first_name: "Ada", username: "ada", language_code: "en" };
const QUESTION = "Where should I deploy?";
const REPAIR_BOUND_MS = 10_000;

async function telegram() {
  const tg = await createFakeTelegram({ botUsername: "defaults_test_bot" });
  fakes.push(tg);
  const env = {
    ASK_USER_DB: join(tempDir(), "gateway.db"),
    TELEGRAM_BOT_TOKEN: tg.token,
    TELEGRAM_API_ROOT: tg.apiRoot,
  };
  const prompts = () => tg.messages(ADA.id).filter((m) => m.from.is_bot && m.text.includes(QUESTION));
  return { tg, env, prompts };
}

describe("repair at start with the default settings", () => {
  it("Telegram: a prompt whose sendMessage was cut off by kill -9 is sent within 10 s of the restart", async () => {
    const { tg, env, prompts } = await telegram();
    const first = await start(env);
    const hold = tg.hold("sendMessage");
    const asked = call(`${first.url}/v1/questions`, "POST", { ...deployInput, target: `telegram:${ADA.id}` });
    asked.catch(() => undefined); // the process dies under it
    await tg.waitUntil(() => hold.calls.length === 1, 10_000);
    await kill9(first.child);
    hold.drop(); // it never reached Telegram

    const second = await start(env);
    const { ms } = await within(() => prompts().length === 1, second.readyAt);
    expect(ms).toBeLessThan(REPAIR_BOUND_MS);
  }, 60_000);

  it("Telegram: a summary edit cut off by kill -9 is made within 10 s of the restart", async () => {
    const { tg, env, prompts } = await telegram();
    const first = await start(env);
    await call(`${first.url}/v1/questions`, "POST", { ...deployInput, target: `telegram:${ADA.id}` });
    const [prompt] = await tg.waitUntil(() => prompts().length === 1 && prompts(), 10_000);
    if (!prompt) throw new Error("no prompt");
    const hold = tg.hold("editMessageText");
    const ada = tg.user(ADA);
    const tap = ada.press(ADA.id, prompt.message_id, "Production");
    expect(await ada.waitForAnswer(tap, 10_000)).toMatchObject({ text: "Recorded: Production" });
    await tg.waitUntil(() => hold.calls.length === 1, 10_000);
    await kill9(first.child);
    hold.drop();

    const second = await start(env);
    const { value, ms } = await within(() => {
      const message = tg.message(ADA.id, prompt.message_id);
      return message?.text.startsWith("✅") && message;
    }, second.readyAt);
    expect(value.text).toBe("✅ Deploy: Production — @\u2060ada");
    expect(ms).toBeLessThan(REPAIR_BOUND_MS);
  }, 60_000);

  it("text webhook: a prompt whose delivery was cut off by kill -9 is sent within 10 s of the restart", async () => {
    const ms = await textRestart({ ASK_USER_DB: join(tempDir(), "gateway.db") });
    expect(ms).toBeLessThan(REPAIR_BOUND_MS);
  }, 60_000);

  it("text webhook on Redis (a new random instance id per start): sent within 10 s of the restart", async () => {
    const redis = await startRedisServer();
    redisServers.push(redis);
    const ms = await textRestart({ ASK_USER_REDIS_URL: redis.url });
    expect(ms).toBeLessThan(REPAIR_BOUND_MS);
  }, 60_000);
});

/**
 * A gateway on `store` with the text channel is killed while its webhook holds the prompt's POST open;
 * a new one starts on the same store. How long after it is ready the prompt arrives.
 */
async function textRestart(store: Record<string, string>): Promise<number> {
  const received: string[] = [];
  let hold = true;
  const server = createServer((req, res: ServerResponse) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      if (hold) return; // a bridge that hangs: the send is cut off with the process
      received.push(JSON.parse(body).text);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ messageId: `m${received.length}` }));
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const env = {
    ...store,
    ASK_USER_TEXT_WEBHOOK_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
  };
  const first = await start(env);
  let requests = 0;
  server.on("request", () => requests++);
  const asked = call(`${first.url}/v1/questions`, "POST", { ...deployInput, target: "text:alice" });
  asked.catch(() => undefined);
  await within(() => requests === 1, Date.now());
  await kill9(first.child);
  hold = false;

  const second = await start(env);
  const { ms } = await within(() => received.length === 1, second.readyAt);
  expect(received[0]).toContain(QUESTION);
  return ms;
}
