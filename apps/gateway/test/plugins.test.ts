import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type AskUserBroker,
  AskUserError,
  type ChannelPlugin,
  createTextChannel,
  InvalidChannelConfigError,
  readVariable,
  requiredVariablesSet,
} from "@ask-user/core";
import { channelPlugin as textPlugin } from "@ask-user/core/text-webhook";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { CHANNEL_MODULES, loadChannelPlugins } from "../src/channels.ts";
import { ConfigError, readGatewayConfig } from "../src/config.ts";
import { banner } from "../src/start.ts";
import { call, deployInput, testGateway } from "./harness.ts";

/** What an in-test channel saw of its host, in order. */
interface Seen {
  steps: string[];
  context?: { instanceId: string; coordination: unknown; config: unknown };
  broker?: AskUserBroker;
  requests: string[];
}

/**
 * A complete channel plugin written the way a fourth channel package would be: "echo" is on when
 * `ECHO_TOKEN` is set, sends nowhere, and takes replies on its webhook as `POST { userId, text }`.
 */
function echoPlugin(seen: Seen, options: { listen?: boolean; failCreate?: number } = {}): ChannelPlugin {
  const plugin: ChannelPlugin<{ token: string }> = {
    name: "echo",
    title: "Echo",
    variables: [
      { name: "ECHO_TOKEN", description: "Turns the echo channel on", required: true, secret: true },
      { name: "ECHO_ROOM", description: "Unused" },
    ],
    enabled: (env) => requiredVariablesSet(plugin, env),
    readConfig(env) {
      const token = readVariable(env, "ECHO_TOKEN") ?? "";
      const problems = [];
      if (token.length < 4) problems.push("ECHO_TOKEN must be at least 4 characters.");
      if (readVariable(env, "ECHO_ROOM") === "bad") problems.push('ECHO_ROOM must not be "bad".');
      if (problems.length > 0) throw new InvalidChannelConfigError("echo", problems);
      return { token };
    },
    parseConversation: (conversation) => conversation,
    async create(context) {
      seen.steps.push("create");
      if (seen.steps.filter((step) => step === "create").length <= (options.failCreate ?? 0))
        throw new Error("echo could not reach its platform");
      seen.context = context;
      let sent = 0;
      let broker: AskUserBroker | undefined;
      return {
        ...createTextChannel({ name: "echo", send: async () => `e${++sent}` }),
        describe: "echo (test)",
        ...(options.listen ? { listen: { host: "127.0.0.1", port: 9999, paths: ["/channels/echo"] } } : {}),
        async handleWebhook(request) {
          seen.requests.push(`${request.method} ${new URL(request.url).pathname}`);
          if (request.method !== "POST")
            return new Response(null, { status: 405, headers: { allow: "POST" } });
          if (!broker) return new Response(null, { status: 503, headers: { "retry-after": "1" } });
          const { userId, text } = (await request.json()) as { userId: string; text: string };
          const outcome = await broker.handleReply({ channel: "echo", conversation: "room", userId, text });
          return Response.json({ outcome: outcome.kind }, { status: 202 });
        },
        async start(ready) {
          seen.steps.push("start");
          seen.broker = ready;
          broker = ready;
        },
        async stop() {
          seen.steps.push("stop");
        },
      };
    },
  };
  return plugin as ChannelPlugin;
}

function fresh(): Seen {
  return { steps: [], requests: [] };
}

/** A pino logger whose lines the test reads. */
function capture() {
  const lines: Array<{ msg: string; channel?: string; level?: number }> = [];
  const logger = pino({ level: "info" }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

describe("the gateway's channel list", () => {
  it("is module names only, each exporting a channel plugin", async () => {
    expect(CHANNEL_MODULES).toEqual([
      "@ask-user/telegram/plugin",
      "@ask-user/discord/plugin",
      "@ask-user/slack/plugin",
      "@ask-user/core/text-webhook",
    ]);
    const plugins = await loadChannelPlugins();
    expect(plugins.map((plugin) => plugin.name)).toEqual(["telegram", "discord", "slack", "text"]);
    expect(plugins[3]).toBe(textPlugin);
  });

  it("refuses a module that can't be loaded or exports no plugin, naming it", async () => {
    await expect(loadChannelPlugins(["@ask-user/core"])).rejects.toMatchObject({
      code: "unknown_channel",
      message: "The channel module @ask-user/core exports no channelPlugin.",
    });
    const missing = await loadChannelPlugins(["@ask-user/nowhere/plugin"]).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(AskUserError);
    expect((missing as Error).message).toMatch(
      /^The channel module @ask-user\/nowhere\/plugin could not be loaded: /,
    );
  });

  it("is the only place in the gateway's source that names a channel package", () => {
    const src = fileURLToPath(new URL("../src", import.meta.url));
    const files = readdirSync(src, { recursive: true, encoding: "utf8" }).filter((file) =>
      file.endsWith(".ts"),
    );
    const naming = files.filter((file) =>
      /@ask-user\/(telegram|discord|slack)|text-webhook"/.test(readFileSync(join(src, file), "utf8")),
    );
    expect(naming.map((file) => relative(src, join(src, file)))).toEqual(["channels.ts"]);
    const channels = readFileSync(join(src, "channels.ts"), "utf8");
    expect(channels.match(/"@ask-user\/[a-z-]+\/[a-z-]+"/g)).toEqual(
      [...CHANNEL_MODULES].map((m) => `"${m}"`),
    );
  });
});

describe("reading the configuration", () => {
  it("reports every problem of the gateway and of every enabled channel together, one line each", () => {
    const env = {
      ASK_USER_PORT: "seventy",
      ASK_USER_LOCALE: "fr",
      ASK_USER_TEXT_WEBHOOK_URL: "ftp://x",
      ECHO_TOKEN: "x",
      ECHO_ROOM: "bad",
    };
    const read = () => readGatewayConfig(env, [echoPlugin(fresh()), textPlugin]);
    expect(read).toThrow(ConfigError);
    try {
      read();
    } catch (error) {
      expect(error).toMatchObject({ name: "ConfigError", code: "invalid_input" });
      expect(error).toBeInstanceOf(AskUserError);
      expect((error as ConfigError).message).toBe(
        [
          "Invalid configuration:",
          '- ASK_USER_PORT must be a port number (0-65535), not "seventy".',
          '- ASK_USER_LOCALE must be "en" or "de", not "fr".',
          "- ECHO_TOKEN must be at least 4 characters.",
          '- ECHO_ROOM must not be "bad".',
          '- ASK_USER_TEXT_WEBHOOK_URL must be an http(s) URL, not "ftp://x".',
        ].join("\n"),
      );
    }
  });

  it("reads only the channels whose variables are set, and checks the default target against them", () => {
    const { config, channels } = readGatewayConfig(
      { ECHO_TOKEN: "long enough", ASK_USER_DEFAULT_TARGET: "echo:room" },
      [echoPlugin(fresh()), textPlugin],
    );
    expect(config.defaultTarget).toEqual({ channel: "echo", conversation: "room" });
    expect(channels.map(({ plugin, config }) => [plugin.name, config])).toEqual([
      ["echo", { token: "long enough" }],
    ]);
    expect(() => readGatewayConfig({ ASK_USER_DEFAULT_TARGET: "text:ops" }, [textPlugin])).toThrow(
      'ASK_USER_DEFAULT_TARGET names the channel "text", which is not configured (running: none).',
    );
  });
});

describe("a channel plugin in the gateway", () => {
  it("is created, then initialised with the broker, serves its webhook under /channels/<name> and stops on close", async () => {
    const seen = fresh();
    const gw = await testGateway(
      { ECHO_TOKEN: "s3cret", ASK_USER_INSTANCE_ID: "gw-1", ASK_USER_DEFAULT_TARGET: "echo:room" },
      { plugins: [echoPlugin(seen), textPlugin] },
    );
    expect(seen.steps).toEqual(["create", "start"]);
    expect(seen.broker).toBe(gw.broker);
    expect(seen.context).toMatchObject({
      instanceId: "gw-1",
      config: { token: "s3cret" },
      coordination: expect.objectContaining({ firstSeen: expect.any(Function) }),
    });

    const { body: question } = await call(`${gw.url}/v1/questions`, "POST", deployInput);
    expect(question.target).toEqual({ channel: "echo", conversation: "room" });
    const reply = await fetch(`${gw.url}/channels/echo/events?x=1`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ userId: "ann", text: "2" }),
    });
    expect(reply.status).toBe(202);
    expect(await reply.json()).toEqual({ outcome: "answered" });
    expect((await fetch(`${gw.url}/channels/echo`)).status).toBe(405);
    expect(seen.requests).toEqual(["POST /channels/echo/events", "GET /channels/echo"]);
    const answered = await call(`${gw.url}/v1/questions/${question.id}`, "GET");
    expect(answered.body.result).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"] } },
    });
    expect((await fetch(`${gw.url}/channels/text`, { method: "POST" })).status).toBe(404);
    const inbound = await call(`${gw.url}/v1/channels/echo/inbound`, "POST", { userId: "ann", text: "1" });
    expect(inbound).toMatchObject({ status: 404, body: { error: { code: "not_found" } } });
    expect(inbound.body.error.message).toBe("The echo channel gets its replies from its platform, not here.");

    await gw.close();
    expect(seen.steps).toEqual(["create", "start", "stop"]);
  });

  it("warns that a channel's own listen address is for the standalone runner only", async () => {
    const { logger, lines } = capture();
    await testGateway({ ECHO_TOKEN: "s3cret" }, { plugins: [echoPlugin(fresh(), { listen: true })], logger });
    expect(lines.filter((line) => line.msg.includes("standalone"))).toEqual([
      expect.objectContaining({
        channel: "echo",
        msg: "echo: 127.0.0.1:9999 is for the standalone runner only; the gateway serves /channels/echo on its own port",
      }),
    ]);
  });

  it("serves while a channel fails to connect: says why, refuses its questions at once, retries, then runs it", async () => {
    const first = fresh();
    const failing = fresh();
    const other = { ...echoPlugin(first), name: "first" };
    const { logger, lines } = capture();
    const gw = await testGateway(
      { ECHO_TOKEN: "s3cret" },
      { plugins: [other, echoPlugin(failing, { failCreate: 1 })], logger },
    );
    expect(first.steps).toEqual(["create", "start"]);
    expect(failing.steps).toEqual(["create"]);
    const retrying = { state: "retrying", error: "echo could not reach its platform", retryInSeconds: 1 };
    expect(gw.channelStatus()).toEqual({ first: { state: "connected" }, echo: retrying });
    expect((await call(`${gw.url}/healthz`, "GET")).body).toEqual({
      ok: true,
      draining: false,
      pid: process.pid,
      channels: { first: { state: "connected" }, echo: retrying },
    });
    expect(lines.filter((line) => line.level === 40).map((line) => line.msg)).toEqual([
      "echo: echo could not reach its platform; retrying in 1 s",
    ]);
    expect(banner(gw)).toContain(
      "  Channels     echo (test), echo: retrying in 1 s (echo could not reach its platform)\n",
    );
    // Its webhook is mounted already: the platform is told to send again later.
    const early = await fetch(`${gw.url}/channels/echo/events`, { method: "POST", body: "{}" });
    expect(early.status).toBe(503);
    expect(early.headers.get("retry-after")).toBe("5");
    // A question for it ends at once, saying why (SPEC §4: undeliverable, not after the timeout).
    const refused = await call(`${gw.url}/v1/questions`, "POST", { ...deployInput, target: "echo:room" });
    expect(refused.body).toMatchObject({
      status: "undeliverable",
      error:
        "ChannelError: echo is not connected yet: echo could not reach its platform; next attempt in 1 s.",
    });

    for (let polls = 0; gw.channelStatus().echo?.state !== "connected"; polls++) {
      if (polls > 200) throw new Error("echo did not connect");
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(failing.steps).toEqual(["create", "create", "start"]);
    expect(lines.map((line) => line.msg)).toContain("echo: connected (echo (test))");
    const delivered = await call(`${gw.url}/v1/questions`, "POST", { ...deployInput, target: "echo:room" });
    expect(delivered.body.status).toBe("pending");
    await gw.close();
    expect(failing.steps).toEqual(["create", "create", "start", "stop"]);
    expect(first.steps).toEqual(["create", "start", "stop"]);
  });

  it("stops retrying at once when closed, and creates nothing after", async () => {
    const failing = fresh();
    const gw = await testGateway(
      { ECHO_TOKEN: "s3cret" },
      { plugins: [echoPlugin(failing, { failCreate: Number.POSITIVE_INFINITY })] },
    );
    expect(gw.channelStatus().echo?.state).toBe("retrying");
    const closing = Date.now();
    await gw.close();
    expect(Date.now() - closing).toBeLessThan(1_000); // not after the 1 s pause
    expect(gw.channelStatus().echo).toEqual({ state: "stopped", error: "echo could not reach its platform" });
    const created = failing.steps.length;
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // past the pause that was cut short
    expect(failing.steps).toHaveLength(created);
  });

  it("lists the running channels in the banner, and for the others the variables that turn them on", async () => {
    const gw = await testGateway({ ECHO_TOKEN: "s3cret" }, { plugins: [echoPlugin(fresh()), textPlugin] });
    const text = banner(gw);
    expect(text).toContain("  Channels     echo (test)\n");
    expect(text).toContain(
      "  More chat channels start when their variables are set:\n    Text webhook  ASK_USER_TEXT_WEBHOOK_URL\n",
    );
    expect(text).not.toContain("s3cret");
    const none = banner(await testGateway({}, { plugins: [echoPlugin(fresh()), textPlugin] }));
    expect(none).toContain("  Channels     none (operator surfaces only");
    expect(none).toContain(
      "  Chat channels start when their variables are set:\n    Echo          ECHO_TOKEN\n    Text webhook  ASK_USER_TEXT_WEBHOOK_URL\n",
    );
  });
});
