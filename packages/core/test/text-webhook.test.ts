import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { channelPlugin } from "../src/channels/text-webhook.ts";
import {
  type AskUserBroker,
  ChannelError,
  type ChannelInstance,
  createAskUser,
  createMemoryCoordination,
  createMemoryStore,
  InvalidChannelConfigError,
  isChannelPlugin,
} from "../src/index.ts";

const input = {
  questions: [
    {
      id: "deploy_target",
      header: "Deploy",
      question: "Where should I deploy?",
      options: [{ label: "Staging (Recommended)", description: "Safe" }, { label: "Production" }],
    },
  ],
};

type Answer = (req: IncomingMessage, res: ServerResponse, body: Record<string, string>) => void;

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The user's chat bridge: records every POST and answers as `answer` says (default: a message id). */
async function bridge(answer?: Answer) {
  const received: Array<Record<string, string>> = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      const parsed = JSON.parse(body) as Record<string, string>;
      received.push(parsed);
      if (answer) return answer(req, res, parsed);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ messageId: `m${received.length}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const close = () => new Promise((resolve) => server.close(resolve));
  cleanups.push(async () => server.listening && (await close()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook?key=secret`;
  return { url, received, close };
}

async function start(url: string): Promise<{ instance: ChannelInstance; broker: AskUserBroker }> {
  const lines: string[] = [];
  const logger = {
    info: (_details: Record<string, unknown>, message: string) => lines.push(message),
    warn: (_details: Record<string, unknown>, message: string) => lines.push(`warn ${message}`),
    error: () => undefined,
  };
  const config = channelPlugin.readConfig({ ASK_USER_TEXT_WEBHOOK_URL: url });
  const instance = await channelPlugin.create({
    config,
    logger,
    coordination: createMemoryCoordination(),
    instanceId: "test",
  });
  const broker = createAskUser({ store: createMemoryStore(), channels: [instance], logger });
  await instance.start(broker);
  expect(lines).toEqual(["text channel ready"]);
  lines.length = 0;
  cleanups.push(async () => {
    await broker.close();
    await instance.stop();
  });
  return { instance, broker };
}

describe("the text webhook channel plugin (@ask-user/core/text-webhook)", () => {
  it("is a plugin named text, on when ASK_USER_TEXT_WEBHOOK_URL is set", () => {
    expect(isChannelPlugin(channelPlugin)).toBe(true);
    expect(channelPlugin.name).toBe("text");
    expect(channelPlugin.variables.map((v) => [v.name, v.required])).toEqual([
      ["ASK_USER_TEXT_WEBHOOK_URL", true],
    ]);
    expect(channelPlugin.enabled({})).toBe(false);
    expect(channelPlugin.enabled({ ASK_USER_TEXT_WEBHOOK_URL: "  " })).toBe(false);
    expect(channelPlugin.enabled({ ASK_USER_TEXT_WEBHOOK_URL: "http://x" })).toBe(true);
    expect(channelPlugin.parseConversation("ops")).toBe("ops");
    expect(channelPlugin.parseConversation(" ")).toBeUndefined();
  });

  it("reads a trimmed http(s) URL and refuses anything else, naming the variable", () => {
    expect(channelPlugin.readConfig({ ASK_USER_TEXT_WEBHOOK_URL: " https://bridge.example/out " })).toEqual({
      url: "https://bridge.example/out",
    });
    for (const [value, problem] of [
      ["ftp://x", 'ASK_USER_TEXT_WEBHOOK_URL must be an http(s) URL, not "ftp://x".'],
      ["http://", 'ASK_USER_TEXT_WEBHOOK_URL must be an http(s) URL, not "http://".'],
      ["", "ASK_USER_TEXT_WEBHOOK_URL is required."],
    ] as const) {
      const read = () => channelPlugin.readConfig({ ASK_USER_TEXT_WEBHOOK_URL: value });
      expect(read).toThrow(InvalidChannelConfigError);
      try {
        read();
      } catch (error) {
        expect((error as InvalidChannelConfigError).problems).toEqual([problem]);
        expect((error as InvalidChannelConfigError).channel).toBe("text");
      }
    }
  });

  it("posts the prompt, takes the reply through the broker and echoes what it recorded", async () => {
    const hook = await bridge();
    const { instance, broker } = await start(hook.url);
    expect(instance.describe).toBe(`text (webhook ${new URL(hook.url).origin})`);
    expect(instance.describe).not.toContain("secret");
    expect(instance.handleWebhook).toBeUndefined();
    expect(instance.capabilities).toMatchObject({ buttons: false, edit: false, ingress: "webhook" });

    const record = await broker.create(input, { target: { channel: "text", conversation: "alice" } });
    expect(hook.received[0]).toMatchObject({ conversation: "alice" });
    expect(hook.received[0]?.text).toContain("1. Staging (Recommended) — Safe");
    expect(record.deliveries[0]?.messageId).toBe("m1");

    const outcome = await broker.handleReply({
      channel: "text",
      conversation: "alice",
      userId: "alice",
      text: "2",
      replyTo: "m1",
    });
    expect(outcome).toMatchObject({ kind: "answered", text: "Recorded: Production" });
    expect(await broker.wait(record.id)).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"] } },
    });
    expect(hook.received[1]).toEqual({ conversation: "alice", text: "Recorded: Production" });
  });

  it("makes up a message id when the bridge answers without one", async () => {
    const hook = await bridge((_req, res) => res.writeHead(204).end());
    const { broker } = await start(hook.url);
    const first = await broker.create(input, { target: { channel: "text", conversation: "a" } });
    const second = await broker.create(input, { target: { channel: "text", conversation: "b" } });
    const ids = [first, second].map((record) => record.deliveries[0]?.messageId ?? "");
    expect(ids[0]).toMatch(/^text-[A-Za-z0-9_-]{16}$/);
    expect(ids[1]).not.toBe(ids[0]);
  });

  it("ends a question undeliverable at once when the bridge refuses, saying what it answered", async () => {
    const hook = await bridge((_req, res) => res.writeHead(500).end("boom"));
    const { broker } = await start(hook.url);
    const record = await broker.create(input, { target: { channel: "text", conversation: "ops" } });
    expect(record).toMatchObject({
      status: "undeliverable",
      error: "ChannelError: The text webhook refused the message: 500 Internal Server Error.",
    });
  });

  it("tells a refusal from a rate limit (with Retry-After) from an unreachable bridge", async () => {
    const limited = await bridge((_req, res) => res.writeHead(429, { "retry-after": "2" }).end());
    const { instance } = await start(limited.url);
    const notice = { conversation: "ops", text: "hello", locale: "en" };
    await expect(instance.notify(notice)).rejects.toMatchObject({
      name: "ChannelError",
      code: "channel_rate_limited",
      channel: "text",
      failure: "rate_limited",
      status: 429,
      retryAfterMs: 2000,
    });

    const gone = await bridge();
    const closed = await start(gone.url);
    await gone.close(); // the port now refuses connections
    const error = await closed.instance.notify(notice).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChannelError);
    expect(error).toMatchObject({
      failure: "unreachable",
      message: "The text webhook could not be reached: the POST failed.",
    });
  });
});
