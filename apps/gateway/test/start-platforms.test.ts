import { createFakeDiscord, type FakeDiscord } from "@ask-user/testkit/discord";
import { createLink, type Link } from "@ask-user/testkit/link";
import { createFakeSlack, type FakeSlack } from "@ask-user/testkit/slack";
import { createFakeTelegram, type FakeTelegram } from "@ask-user/testkit/telegram";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import type { RunningGateway } from "../src/gateway.ts";
import { banner } from "../src/start.ts";
import { call, deployInput, testGateway } from "./harness.ts";

// Each platform is unreachable when the gateway starts (its API URL points at a link that cuts every
// connection) and comes up later (the link pipes to the platform's fake).
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** The healthz answer must come this fast although the platform is down (it never came before). */
const SERVING_WITHIN_MS = 5_000;

/** A pino logger whose lines the test reads. */
function capture() {
  const lines: Array<{ level: number; msg: string; channel?: string }> = [];
  const logger = pino({ level: "info" }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

/** Bounded polling for a condition outside any fake (the gateway's own state). */
async function until<T>(check: () => T | undefined | false, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Starts a gateway whose `name` channel can't reach its platform: it serves at once, `/healthz` says the
 * channel is retrying with the reason, the log says when it tries again, and a question for it ends
 * undeliverable at once, saying why.
 */
async function startWhileDown(name: string, env: Record<string, string>, link: Link, target: string) {
  const { logger, lines } = capture();
  const startedAt = Date.now();
  const gw = await testGateway({ ASK_USER_ANSWERERS: "conversation", ...env }, { logger });
  const health = await call(`${gw.url}/healthz`, "GET");
  const servingMs = Date.now() - startedAt;
  expect(servingMs).toBeLessThan(SERVING_WITHIN_MS);
  expect(link.refused).toBeGreaterThan(0);
  expect(health.status).toBe(200);
  expect(health.body).toMatchObject({
    ok: true,
    channels: {
      [name]: { state: "retrying", error: expect.any(String), retryInSeconds: expect.any(Number) },
    },
  });
  expect(banner(gw)).toMatch(new RegExp(`Channels {5}${name}: retrying in \\d+ s \\(.+\\)\\n`));
  const warning = lines.find((line) => line.channel === name && line.level === 40);
  expect(warning?.msg).toMatch(new RegExp(`^${name}: .+; retrying in 1 s$`));

  const early = await call(`${gw.url}/v1/questions`, "POST", { ...deployInput, target });
  expect(early.status).toBe(201);
  const ended = await call(`${gw.url}/v1/questions/${early.body.id}?wait=5`, "GET");
  expect(ended.body).toMatchObject({ status: "undeliverable" });
  expect(ended.body.error).toMatch(new RegExp(`^ChannelError: ${name} is not connected yet: .+`));
  return { gw, lines, servingMs };
}

/** The platform comes up: the channel connects (logged), and a question is delivered. */
async function comesUp(gw: RunningGateway, name: string, lines: Array<{ msg: string }>, target: string) {
  await until(() => gw.channelStatus()[name]?.state === "connected", `${name} to connect`);
  expect((await call(`${gw.url}/healthz`, "GET")).body.channels[name]).toEqual({ state: "connected" });
  expect(lines.map((line) => line.msg)).toContainEqual(expect.stringMatching(`^${name}: connected \\(`));
  expect(banner(gw)).not.toContain(`${name}: retrying`);
  const created = await call(`${gw.url}/v1/questions`, "POST", { ...deployInput, target });
  expect(created.status).toBe(201);
  return created.body.id as string;
}

async function answered(gw: RunningGateway, id: string, channel: string) {
  const polled = await call(`${gw.url}/v1/questions/${id}?wait=5`, "GET");
  expect(polled.body).toMatchObject({
    status: "answered",
    resolvedBy: { channel },
    result: { status: "answered", answers: { answers: { deploy_target: ["Production"] } } },
  });
}

async function link(): Promise<Link> {
  const created = await createLink();
  closers.push(() => created.close());
  return created;
}

describe("the gateway serves at once while a platform is unreachable, and the channel connects when it comes up", () => {
  it("Telegram (grammY, long polling)", async () => {
    const tg: FakeTelegram = await createFakeTelegram({ botUsername: "gateway_test_bot" });
    closers.push(() => tg.close());
    const down = await link();
    const target = "telegram:42";
    const { gw, lines } = await startWhileDown(
      "telegram",
      { TELEGRAM_BOT_TOKEN: tg.token, TELEGRAM_API_ROOT: down.url() },
      down,
      target,
    );
    expect(gw.channelStatus().telegram?.error).toMatch(/getMe/);
    down.up(tg.apiRoot);
    const id = await comesUp(gw, "telegram", lines, target);
    expect(gw.channels[0]?.describe).toBe("telegram (@gateway_test_bot, long polling)");

    const prompt = await tg.waitUntil(
      () => tg.messages(42).find((m) => m.text.includes("Where should I deploy?")),
      5_000,
    );
    const ada = tg.user({ id: 42, first_name: "Ada", username: "ada" });
    await ada.waitForAnswer(await ada.press(42, prompt.message_id, "Production"));
    await answered(gw, id, "telegram");
  }, 60_000);

  it("Discord (discord.js, REST and gateway)", async () => {
    const discord: FakeDiscord = await createFakeDiscord();
    closers.push(() => discord.close());
    const down = await link();
    const channelId = discord.guild.channelId;
    const target = `discord:${channelId}`;
    const { gw, lines } = await startWhileDown(
      "discord",
      { DISCORD_BOT_TOKEN: discord.token, DISCORD_API_URL: down.url("/api") },
      down,
      target,
    );
    down.up(discord.apiUrl);
    const id = await comesUp(gw, "discord", lines, target);
    expect(gw.channels[0]?.describe).toMatch(/^discord \(@\w+, gateway\)$/);

    const prompt = await discord.waitUntil(() =>
      discord.messages(channelId).find((m) => m.content.includes("Where should I deploy?")),
    );
    const ada = discord.user({ id: "42", username: "ada" });
    await discord.waitForResponse(ada.click(channelId, prompt.id, "Production"));
    await answered(gw, id, "discord");
  }, 60_000);

  it("Slack (Bolt, Socket Mode)", async () => {
    const slack: FakeSlack = await createFakeSlack();
    closers.push(() => slack.close());
    const down = await link();
    const target = "slack:C0GENERAL";
    const apiPath = new URL(slack.apiUrl).pathname;
    const { gw, lines } = await startWhileDown(
      "slack",
      { SLACK_BOT_TOKEN: slack.botToken, SLACK_APP_TOKEN: slack.appToken, SLACK_API_URL: down.url(apiPath) },
      down,
      target,
    );
    expect(gw.channelStatus().slack?.error).toMatch(/auth\.test/);
    down.up(slack.apiUrl);
    const id = await comesUp(gw, "slack", lines, target);
    expect(slack.socketConnections()).toBe(1);

    const prompt = await slack.waitUntil(() =>
      slack.messages("C0GENERAL").find((m) => m.text.includes("Where should I deploy?")),
    );
    await slack.user({ id: "U0ALICE", name: "alice" }).press("C0GENERAL", prompt.ts, "Production");
    await answered(gw, id, "slack");
  }, 60_000);
});
