import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type ChannelPlugin, createTextChannel } from "@ask-user/core";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { banner } from "../src/start.ts";
import { call, deployInput, testGateway } from "./harness.ts";

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

async function hook(): Promise<string> {
  const server = createServer((_req, res) => res.end("{}"));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

describe("the banner on who may answer (SPEC §5)", () => {
  it("warns when the default target is a shared chat and only creators may answer", async () => {
    const url = await hook();
    // The text channel counts its conversations as one-to-one (an SMS thread): no warning.
    const direct = await testGateway({ ASK_USER_TEXT_WEBHOOK_URL: url, ASK_USER_DEFAULT_TARGET: "text:ops" });
    expect(banner(direct)).not.toContain("shared chat");
    const group = await testGateway({ ASK_USER_TEXT_WEBHOOK_URL: url, ASK_USER_DEFAULT_TARGET: "text:ops" });
    // The same target as a group chat (what Telegram says of a negative chat id): a warning.
    const text = group.channels.find((c) => c.channel.name === "text")?.channel;
    if (!text) throw new Error("no text channel");
    Object.assign(text, { isDirect: () => false });
    expect(banner(group)).toContain("text:ops is a shared chat");
    expect(banner(group)).toContain("ASK_USER_ANSWERERS=conversation");
    const open = await testGateway({
      ASK_USER_TEXT_WEBHOOK_URL: url,
      ASK_USER_DEFAULT_TARGET: "text:ops",
      ASK_USER_ANSWERERS: "conversation",
    });
    Object.assign(open.channels.find((c) => c.channel.name === "text")?.channel ?? {}, {
      isDirect: () => false,
    });
    expect(banner(open)).not.toContain("shared chat");
  });
});

/** A channel whose platform answers only when the test lets it (`connect()`); what it sent. */
function slowPlugin() {
  let connect: () => void = () => undefined;
  const reachable = new Promise<void>((resolve) => {
    connect = resolve;
  });
  const sent: string[] = [];
  const plugin: ChannelPlugin = {
    name: "slow",
    title: "Slow",
    variables: [{ name: "SLOW_ON", description: "Turns the slow channel on", required: true }],
    enabled: (env) => Boolean(env.SLOW_ON),
    readConfig: () => ({}),
    parseConversation: (conversation) => conversation,
    async create() {
      await reachable;
      const send = async (_to: string, text: string) => sent.push(text);
      return {
        ...createTextChannel({ name: "slow", send }),
        describe: "slow (test)",
        start: async () => undefined,
        stop: async () => undefined,
      };
    },
  };
  return { plugin, connect, sent };
}

describe("the banner on channels that are still connecting", () => {
  it("says so, a question for one waits for the attempt in progress, and the log says when it connects", {
    timeout: 20_000,
  }, async () => {
    const slow = slowPlugin();
    const lines: Array<{ msg: string; level: number }> = [];
    const logger = pino({ level: "info" }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const gw = await testGateway({ SLOW_ON: "1" }, { plugins: [slow.plugin], logger, channelWaitMs: 0 });
    expect(banner(gw)).toContain("  Channels     slow: connecting…\n");
    expect((await call(`${gw.url}/healthz`, "GET")).body.channels).toEqual({ slow: { state: "connecting" } });

    // The platform answers once the question is stored, while its delivery waits for the connection.
    const stop = gw.broker.subscribe((event) => {
      if (event.type === "question.requested") slow.connect();
    });
    const created = await call(`${gw.url}/v1/questions`, "POST", { ...deployInput, target: "slow:room" });
    stop();
    expect(created.body.status).toBe("pending");
    expect(slow.sent).toEqual([expect.stringContaining("Where should I deploy?")]);
    expect(banner(gw)).toContain("  Channels     slow (test)\n");
    expect(lines.filter((line) => line.level === 30).map((line) => line.msg)).toContain(
      "slow: connected (slow (test))",
    );
  });
});
