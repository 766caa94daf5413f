/** `channelPlugin`: what a host sees — variables, config problems, create → initialize → stop, the webhook. */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type ChannelInstance, createAskUser, createMemoryStore, isChannelPlugin } from "@ask-user/core";
import {
  type AskUserBroker,
  ChannelError,
  createMemoryCoordination,
  InvalidChannelConfigError,
} from "@ask-user/core/channel";
import { type FakeSlack, signedHeaders } from "@ask-user/testkit/slack";
import { webApi } from "@slack/bolt";
import { afterEach, describe, expect, it } from "vitest";
import { channelPlugin } from "../src/plugin.ts";
import {
  ALICE,
  actions,
  CHANNEL,
  DEPLOY,
  fakeSlack,
  type Mode,
  recordingLogger,
  waitForText,
} from "./harness.ts";
import { type Served, serveHandler } from "./serve.ts";

const stops: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

function envOf(slack: FakeSlack, mode: Mode): Record<string, string> {
  const common = { SLACK_BOT_TOKEN: slack.botToken, SLACK_API_URL: slack.apiUrl };
  return mode === "socket"
    ? { ...common, SLACK_APP_TOKEN: slack.appToken }
    : { ...common, SLACK_SIGNING_SECRET: slack.signingSecret, SLACK_PORT: "0" };
}

/** Created from the environment as a host does; stopped after the test. */
async function created(slack: FakeSlack, mode: Mode, env: Record<string, string> = envOf(slack, mode)) {
  const logger = { ...recordingLogger(), infos: [] as string[] };
  const config = channelPlugin.readConfig(env);
  const instance = await channelPlugin.create({
    config,
    logger: { ...logger, info: (_details, message) => logger.infos.push(message) },
    coordination: createMemoryCoordination(),
    instanceId: "a",
  });
  stops.push(() => instance.stop());
  return { instance, logger };
}

/** HTTP mode as the standalone runner runs it: `handleWebhook` served on `listen.paths`. */
async function served(slack: FakeSlack, instance: ChannelInstance): Promise<Served> {
  const { handleWebhook, listen } = instance;
  if (!handleWebhook || !listen) throw new Error("not HTTP mode");
  const server = await serveHandler(handleWebhook, listen.paths);
  stops.push(() => server.close());
  slack.setRequestUrl(server.url);
  return server;
}

function brokerFor(instance: ChannelInstance): AskUserBroker {
  const broker = createAskUser({ store: createMemoryStore(), channels: [instance] });
  stops.push(() => broker.close());
  return broker;
}

describe("channelPlugin", () => {
  it("names every variable it reads, secrets marked, the bot token required", () => {
    expect(isChannelPlugin(channelPlugin)).toBe(true);
    expect(channelPlugin).toMatchObject({ name: "slack", title: "Slack" });
    expect(channelPlugin.variables.map((v) => [v.name, Boolean(v.required), Boolean(v.secret)])).toEqual([
      ["SLACK_BOT_TOKEN", true, true],
      ["SLACK_APP_TOKEN", false, true],
      ["SLACK_SIGNING_SECRET", false, true],
      ["SLACK_PORT", false, false],
      ["SLACK_HOST", false, false],
      ["SLACK_API_URL", false, false],
    ]);
    for (const variable of channelPlugin.variables) expect(variable.description).not.toBe("");
    expect(channelPlugin.enabled({ SLACK_BOT_TOKEN: "xoxb-1" })).toBe(true);
    expect(channelPlugin.enabled({ SLACK_BOT_TOKEN: "  ", SLACK_APP_TOKEN: "xapp-1" })).toBe(false);
    const { enabled } = channelPlugin; // a host may hold the function alone
    expect(enabled({ SLACK_BOT_TOKEN: "xoxb-1" })).toBe(true);
  });

  it("lists every problem with the variables at once", () => {
    const problems = (env: Record<string, string>) => {
      try {
        channelPlugin.readConfig(env);
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidChannelConfigError);
        expect(error).toMatchObject({ channel: "slack", code: "invalid_input" });
        return (error as InvalidChannelConfigError).problems;
      }
      throw new Error("no problem found");
    };
    expect(problems({ SLACK_PORT: "http", SLACK_API_URL: "not a url" })).toEqual([
      "SLACK_BOT_TOKEN is required (the xoxb-… bot token).",
      "Set SLACK_APP_TOKEN (xapp-…, Socket Mode: no public URL needed) or SLACK_SIGNING_SECRET (HTTP mode: Request URL …/channels/slack/events).",
      "SLACK_PORT must be a port number.",
      "SLACK_API_URL must be a URL.",
    ]);
    expect(
      problems({ SLACK_BOT_TOKEN: "xoxb-1", SLACK_SIGNING_SECRET: " ", SLACK_PORT: "70000" }),
    ).toHaveLength(2);
  });

  it("prefers Socket Mode, trims values and defaults the HTTP port to 127.0.0.1:3000", () => {
    expect(
      channelPlugin.readConfig({ SLACK_BOT_TOKEN: " b ", SLACK_APP_TOKEN: "a", SLACK_SIGNING_SECRET: "s" }),
    ).toEqual({ botToken: "b", appToken: "a", port: 3000, host: "127.0.0.1" });
    expect(
      channelPlugin.readConfig({
        SLACK_BOT_TOKEN: "b",
        SLACK_SIGNING_SECRET: "s",
        SLACK_API_URL: "http://x/api",
      }),
    ).toEqual({ botToken: "b", signingSecret: "s", port: 3000, host: "127.0.0.1", apiUrl: "http://x/api/" });
  });

  it("loads Bolt only in create: listing the plugin loads core and the config reader", async () => {
    const loaded = async (module: string) => {
      const script = `await import(${JSON.stringify(module)});
        const { createRequire } = await import("node:module");
        const cache = Object.keys(createRequire(import.meta.url).cache);
        console.log(JSON.stringify(cache.filter((path) => path.includes("@slack"))));`;
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ["--import", "tsx", "--input-type=module", "-e", script],
        { cwd: fileURLToPath(new URL("..", import.meta.url)) },
      );
      return JSON.parse(stdout) as string[];
    };
    const [plugin, instance] = await Promise.all([loaded("./src/plugin.ts"), loaded("./src/adapter.ts")]);
    expect(plugin).toEqual([]);
    expect(instance.some((path) => path.includes("@slack/bolt"))).toBe(true);
  }, 30_000);
});

describe("a Slack instance in Socket Mode", () => {
  it("connects in initialize, answers a tap, and closes its connection on stop (twice is fine)", async () => {
    const slack = await fakeSlack();
    const { instance, logger } = await created(slack, "socket");
    expect(instance.describe).toBe("slack (@ask_user_bot, Socket Mode)");
    expect(instance.handleWebhook).toBeUndefined();
    expect(instance.listen).toBeUndefined();
    expect(instance.capabilities).toEqual({
      buttons: true,
      edit: true,
      privateNotices: true,
      maxButtons: 25,
      maxButtonLabel: 75,
      ingress: "connection",
    });
    expect(slack.socketConnections()).toBe(0); // created, not receiving
    const broker = brokerFor(instance);
    await instance.start(broker);
    expect(slack.socketConnections()).toBe(1);
    expect(logger.infos).toEqual(["slack (@ask_user_bot, Socket Mode) ready"]);
    await expect(instance.start(broker)).rejects.toThrow("started already");

    const record = await broker.create(DEPLOY, {
      target: { channel: "slack", conversation: CHANNEL },
      creator: { channel: "slack", userId: ALICE.id },
    });
    const ts = record.deliveries[0]?.messageId ?? "";
    await slack.user(ALICE).press(CHANNEL, ts, "Production");
    expect(await broker.wait(record.id)).toEqual({
      status: "answered",
      answers: { answers: { env: ["Production"] } },
    });
    await waitForText(slack, CHANNEL, ts, "✅ Deploy: Production — @alice");
    await broker.idle();

    await Promise.all([instance.stop(), instance.stop()]);
    await slack.waitUntil(() => slack.socketConnections() === 0);
    await instance.stop();
    await expect(instance.start(broker)).rejects.toThrow("stopped");
    expect(slack.calls.filter((c) => c.method === "auth.test")).toHaveLength(1);
    expect(JSON.stringify(logger.lines)).not.toContain(slack.botToken);
    expect(logger.lines).toEqual([]);
  });

  it("refuses a bad bot token in create, as a ChannelError, before connecting", async () => {
    const slack = await fakeSlack();
    const env = { ...envOf(slack, "socket"), SLACK_BOT_TOKEN: "xoxb-wrong" };
    const failure = created(slack, "socket", env);
    await expect(failure).rejects.toBeInstanceOf(ChannelError);
    await expect(failure).rejects.toMatchObject({
      failure: "refused",
      method: "auth.test",
      message: "Slack refused auth.test: invalid_auth",
    });
    expect(slack.socketConnections()).toBe(0);
  });

  it("acknowledges at once a tap on another app's buttons, which nobody handles", async () => {
    const slack = await fakeSlack({ echoBotMessages: false });
    const { instance, logger } = await created(slack, "socket");
    await instance.start(brokerFor(instance));
    const other = new webApi.WebClient(slack.botToken, { slackApiUrl: slack.apiUrl });
    const posted = await other.chat.postMessage({
      channel: CHANNEL,
      text: "another app's buttons",
      blocks: [
        {
          type: "actions",
          elements: [{ type: "button", text: { type: "plain_text", text: "Theirs" }, action_id: "theirs" }],
        },
      ],
    });
    const tap = await slack.user(ALICE).press(CHANNEL, String(posted.ts), "Theirs");
    expect(tap.status).toBe(200);
    expect(tap.ms).toBeLessThan(1000);
    expect(logger.lines).toEqual([]);
  });
});

describe("a Slack instance in HTTP mode", () => {
  it("answers 503 with Retry-After before initialize, so Slack redelivers the event, then handles it", async () => {
    const slack = await fakeSlack({ eventRetryDelaysMs: [500], echoBotMessages: false });
    const { instance } = await created(slack, "http");
    expect(instance.describe).toBe("slack (@ask_user_bot, HTTP at /channels/slack/events)");
    expect(instance.listen).toEqual({
      host: "127.0.0.1",
      port: 0,
      paths: ["/channels/slack/events", "/slack/events"],
    });
    expect(instance.capabilities.ingress).toBe("webhook");
    await served(slack, instance);
    const broker = brokerFor(instance);
    const record = await broker.create(DEPLOY, {
      target: { channel: "slack", conversation: CHANNEL },
      creator: { channel: "slack", userId: ALICE.id },
    });
    const ts = record.deliveries[0]?.messageId ?? "";

    const early = await slack.user(ALICE).say(CHANNEL, "2", { threadTs: ts });
    expect(early.delivery.status).toBe(503);
    expect(early.delivery.body).toMatchObject({ ok: false, error: "not_ready" });
    const direct = await instance.handleWebhook?.(
      new Request("http://x/channels/slack/events", { method: "POST" }),
    );
    expect(direct?.status).toBe(503);
    expect(direct?.headers.get("retry-after")).toBe("1");

    await instance.start(broker);
    const again = await slack.waitUntil(() => slack.deliveries.find((d) => d.retryNum === 1));
    expect(again.status).toBe(200);
    expect(await broker.wait(record.id)).toEqual({
      status: "answered",
      answers: { answers: { env: ["Production"] } },
    });
    await waitForText(slack, CHANNEL, ts, "✅ Deploy: Production — @alice");
    await broker.idle();

    await instance.stop();
    expect((await slack.deliverHttp({ type: "url_verification", challenge: "late" })).status).toBe(503);
  });

  it("checks Slack's signature once initialized, answers url_verification, on every listen path", async () => {
    const slack = await fakeSlack();
    const { instance } = await created(slack, "http");
    const server = await served(slack, instance);
    await instance.start(brokerFor(instance));
    const webhook = instance.handleWebhook as NonNullable<ChannelInstance["handleWebhook"]>;
    for (const path of ["/channels/slack/events", "/slack/events"]) {
      slack.setRequestUrl(`http://127.0.0.1:${server.port}${path}`);
      expect((await slack.deliverHttp({ type: "url_verification", challenge: path })).body).toEqual({
        challenge: path,
      });
    }
    const url = "https://gw.example.com/channels/slack/events";
    const body = JSON.stringify({ type: "url_verification", challenge: "hello", token: "t" });
    const now = Math.floor(Date.now() / 1000);
    const post = (headers: Record<string, string>) =>
      webhook(new Request(url, { method: "POST", headers, body }));
    const good = await post(signedHeaders(slack.signingSecret, now, body, "json"));
    expect(good.status).toBe(200);
    expect(await good.json()).toEqual({ challenge: "hello" });
    expect((await post(signedHeaders("not-the-secret", now, body, "json"))).status).toBe(401);
    expect((await post(signedHeaders(slack.signingSecret, now - 301, body, "json"))).status).toBe(401);
    expect((await post({ "content-type": "application/json" })).status).toBe(401);
    expect((await webhook(new Request(url))).status).toBe(405);
  });

  it("acknowledges at once a tap on another app's buttons, which nobody handles", async () => {
    const slack = await fakeSlack({ echoBotMessages: false });
    const { instance, logger } = await created(slack, "http");
    await served(slack, instance);
    await instance.start(brokerFor(instance));
    const other = new webApi.WebClient(slack.botToken, { slackApiUrl: slack.apiUrl });
    const posted = await other.chat.postMessage({
      channel: CHANNEL,
      text: "another app's buttons",
      blocks: [
        {
          type: "actions",
          elements: [{ type: "button", text: { type: "plain_text", text: "Theirs" }, action_id: "theirs" }],
        },
      ],
    });
    const tap = await slack.user(ALICE).press(CHANNEL, String(posted.ts), "Theirs");
    expect(tap.status).toBe(200);
    expect(tap.ms).toBeLessThan(1000);
    expect(actions(slack.message(CHANNEL, String(posted.ts)))).toHaveLength(1);
    expect(logger.lines).toEqual([]);
  });
});
