/**
 * Discord's failures in core's terms (`toChannelError`), with the real discord.js against the fake: what
 * Discord refuses, what it rate-limits and what never arrives, as calls and as the question's error.
 */
import { createAskUser, createMemoryStore } from "@ask-user/core";
import { ChannelError, createMemoryCoordination, type QuestionRecord } from "@ask-user/core/channel";
import { createFakeDiscord, type FakeDiscord } from "@ask-user/testkit/discord";
import { REST, Routes } from "discord.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isSettledEditError, toChannelError } from "../src/errors.ts";
import { channelPlugin } from "../src/plugin.ts";
import { DEPLOY } from "./harness.ts";

let discord: FakeDiscord;
beforeAll(async () => {
  discord = await createFakeDiscord();
});
afterAll(() => discord.close());

const SEND = "POST /channels/{id}/messages";
const quiet = { warn: () => undefined, error: () => undefined, info: () => undefined };

/** A real discord.js REST client on the fake. */
const rest = (options: ConstructorParameters<typeof REST>[0] = {}) =>
  new REST({ api: discord.apiUrl, ...options }).setToken(discord.token);

/** The failure of one message sent with `client`, mapped. */
async function sendFails(client: REST): Promise<ChannelError> {
  try {
    await client.post(Routes.channelMessages(discord.guild.channelId), { body: { content: "hi" } });
  } catch (error) {
    return toChannelError(error, SEND);
  }
  throw new Error("the call succeeded");
}

describe("toChannelError", () => {
  it("tells what Discord refused, with its status, description and code", async () => {
    discord.failNext("createMessage", { status: 403, code: 50001, message: "Missing Access" });
    const error = await sendFails(rest());
    expect(error).toBeInstanceOf(ChannelError);
    expect(error).toMatchObject({
      code: "channel_refused",
      failure: "refused",
      channel: "discord",
      method: SEND,
      status: 50001,
      message: "Discord refused POST /channels/{id}/messages: 403 Missing Access (code 50001)",
    });
  });

  it("gives a rate limit discord.js does not wait out as rate_limited, with Discord's retry-after", async () => {
    discord.failNext("createMessage", { status: 429, retryAfter: 60 });
    const error = await sendFails(rest({ rejectOnRateLimit: () => true }));
    expect(error).toMatchObject({ code: "channel_rate_limited", failure: "rate_limited", status: 429 });
    expect(error.retryAfterMs).toBeGreaterThanOrEqual(60_000);
    expect(error.retryAfterMs).toBeLessThan(61_000);
  });

  it("calls a 5xx after discord.js's retries, and a cut connection, unreachable", async () => {
    discord.failNext("createMessage", { status: 502, message: "Bad Gateway" });
    expect(await sendFails(rest({ retries: 0 }))).toMatchObject({
      code: "channel_unreachable",
      failure: "unreachable",
      status: 502,
    });

    const held = discord.hold("createMessage");
    const failing = sendFails(rest({ retries: 0 }));
    await discord.waitUntil(() => held.calls.length === 1);
    held.drop();
    const cut = await failing;
    expect(cut).toMatchObject({ failure: "unreachable", method: SEND });
    expect(cut.message).toMatch(/^Discord unreachable for POST \/channels\/\{id\}\/messages: \w+/);
  });

  it("keeps a ChannelError, never prints the token, and knows an edit of a deleted message", async () => {
    const refused = new ChannelError("discord", "refused", "no");
    expect(toChannelError(refused, SEND)).toBe(refused);
    expect(toChannelError("boom", SEND)).toMatchObject({
      failure: "unreachable",
      message: `Discord unreachable for ${SEND}: boom`,
    });

    const message = await rest().post(Routes.channelMessages(discord.guild.channelId), {
      body: { content: "x" },
    });
    const id = (message as { id: string }).id;
    const edit = async (failure: Parameters<FakeDiscord["failNext"]>[1]) => {
      discord.failNext("editMessage", failure);
      return rest()
        .patch(Routes.channelMessage(discord.guild.channelId, id), { body: { content: "y" } })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
    };
    const gone = await edit({ status: 404, code: 10008, message: "Unknown Message" });
    expect(isSettledEditError(gone)).toBe(true);
    expect(isSettledEditError(toChannelError(gone, "edit"))).toBe(true);
    const denied = await edit({ status: 403, code: 50001, message: "Missing Access" });
    expect(isSettledEditError(denied)).toBe(false);
    expect(toChannelError(denied, "PATCH").message).not.toContain(discord.token);
  });
});

describe("a question's error", () => {
  /** A plugin instance (its own client) and a broker; both closed by the caller. */
  async function instance() {
    const config = channelPlugin.readConfig({
      DISCORD_BOT_TOKEN: discord.token,
      DISCORD_API_URL: discord.apiUrl,
    });
    const running = await channelPlugin.create({
      config,
      logger: quiet,
      coordination: createMemoryCoordination(),
      instanceId: "errors",
    });
    const broker = createAskUser({ store: createMemoryStore(), channels: [running], logger: quiet });
    return {
      broker,
      ask: (): Promise<QuestionRecord> =>
        broker.create(DEPLOY, { target: { channel: "discord", conversation: discord.guild.channelId } }),
      close: async () => {
        await broker.close();
        await running.stop();
      },
    };
  }

  it("reads the same as on every channel: refused, unreachable", async () => {
    const { ask, close } = await instance();
    try {
      discord.failNext("createMessage", { status: 403, code: 50001, message: "Missing Access" });
      expect(await ask()).toMatchObject({
        status: "undeliverable",
        error: "ChannelError: Discord refused POST /channels/{id}/messages: 403 Missing Access (code 50001)",
      });

      const held = discord.hold("createMessage");
      const asked = ask();
      await discord.waitUntil(() => held.calls.length === 1);
      held.drop();
      expect(await asked).toMatchObject({
        status: "undeliverable",
        error: expect.stringMatching(
          /^ChannelError: Discord unreachable for POST \/channels\/\{id\}\/messages/,
        ),
      });
    } finally {
      await close();
    }
  });

  it("waits out a short rate limit, and gives up at once on one over 30 s", async () => {
    const { ask, close } = await instance();
    try {
      discord.failNext("createMessage", { status: 429, retryAfter: 0.2 });
      expect(await ask()).toMatchObject({ status: "pending" });

      discord.failNext("createMessage", { status: 429, retryAfter: 60 });
      const started = Date.now();
      expect(await ask()).toMatchObject({
        status: "undeliverable",
        error: expect.stringMatching(
          /^ChannelError: Discord rate-limited POST \/channels\/\{id\}\/messages: retry after 600\d\d ms$/,
        ),
      });
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await close();
    }
  });
});
