import { createAskUser, createMemoryStore } from "@ask-user/core";
import { createFakeClock } from "@ask-user/core/testing";
import { Client, Events, GatewayIntentBits, Partials } from "discord.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDiscordChannel } from "../src/index.ts";
import {
  ALICE,
  buttonRows,
  closeWorld,
  createWorld,
  DEPLOY,
  expectSummary,
  mention,
  picked,
  promptIn,
  ROLLOUT,
  setup,
  type World,
} from "./harness.ts";

let world: World;
beforeAll(async () => {
  world = await createWorld();
});
afterAll(() => closeWorld(world));

const alice = { channel: "discord", userId: ALICE.id };

describe("after resolution elsewhere", () => {
  it("edits the message to ⌛ Deploy — expired when the deadline passes, and refuses a late tap in the reader's time", async () => {
    const clock = createFakeClock(Date.now());
    const { broker, channelId } = await setup(world, { clock });
    const record = await broker.create(
      { ...DEPLOY, timeoutSeconds: 60 },
      {
        target: { channel: "discord", conversation: channelId },
        creator: alice,
      },
    );
    const prompt = await promptIn(world, channelId);

    await clock.advance(60_000);
    await broker.idle();

    expect(await broker.wait(record.id)).toEqual({ status: "no_answer", reason: "expired" });
    expect(world.discord.message(channelId, prompt.id)).toMatchObject({
      content: "⌛ Deploy — expired",
      components: [],
    });
    const late = world.discord.user(ALICE).click(channelId, prompt.id, "Production", { stale: true });
    const response = await world.discord.waitForResponse(late);
    expect(response.data?.content).toBe(
      `This question expired at <t:${Math.floor(record.expiresAt / 1000)}:t>.`,
    );
    expect(response.data?.flags).toBe(64);
  });

  it("edits the message to ✖ Deploy — cancelled when the run is aborted", async () => {
    const { broker, channelId } = await setup(world);
    const controller = new AbortController();
    const asked = broker.ask(DEPLOY, {
      target: { channel: "discord", conversation: channelId },
      signal: controller.signal,
    });
    const prompt = await promptIn(world, channelId);

    controller.abort();

    expect(await asked).toEqual({ status: "no_answer", reason: "cancelled" });
    await expectSummary(world, channelId, prompt.id, "✖ Deploy — cancelled");
  });

  it("edits the message when the question is answered on an operator surface", async () => {
    const { broker, channelId } = await setup(world);
    const record = await broker.create(DEPLOY, { target: { channel: "discord", conversation: channelId } });
    const prompt = await promptIn(world, channelId);

    await broker.answer(
      record.id,
      { deploy_target: ["Production"] },
      { channel: "web", userId: "op", displayName: "Ops" },
    );

    await expectSummary(world, channelId, prompt.id, "✅ Deploy: Production — Ops via the web panel");
  });
});

describe("a restart", () => {
  async function login(discord: World["discord"]): Promise<Client> {
    const client = new Client({
      intents: [
        GatewayIntentBits.Guilds,
        GatewayIntentBits.GuildMessages,
        GatewayIntentBits.DirectMessages,
        GatewayIntentBits.MessageContent,
      ],
      partials: [Partials.Channel],
      rest: { api: discord.apiUrl },
    });
    const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
    await client.login(discord.token);
    await ready;
    return client;
  }

  it("keeps the buttons working: a tap after the restart resolves the question and edits the message", async () => {
    const { discord } = world;
    const store = createMemoryStore();
    const channelId = discord.guild.channelId;
    const before = await login(discord);
    const first = createDiscordChannel({ client: before });
    const brokerA = createAskUser({ store, channels: [first] });
    await first.start(brokerA);
    const record = await brokerA.create(DEPLOY, {
      target: { channel: "discord", conversation: channelId },
      creator: alice,
    });
    await brokerA.close();
    await first.stop();
    await before.destroy();

    const after = await login(discord);
    const second = createDiscordChannel({ client: after });
    const brokerB = createAskUser({ store, channels: [second] });
    await second.start(brokerB);
    try {
      await brokerB.ready;
      const prompt = discord.message(channelId, record.deliveries[0]?.messageId ?? "");
      expect(buttonRows(prompt)).toHaveLength(2);
      const tap = discord.user(ALICE).click(channelId, prompt?.id ?? "", "Production");

      expect(await brokerB.wait(record.id)).toMatchObject({
        answers: { answers: { deploy_target: ["Production"] } },
      });
      expect((await discord.waitForResponse(tap)).type).toBe(7);
      expect(discord.message(channelId, prompt?.id ?? "")).toMatchObject({
        content: `✅ Deploy: Production — ${mention(ALICE)}`,
        components: [],
      });
    } finally {
      await brokerB.close();
      await second.stop();
      await after.destroy();
    }
  });

  it("keeps a half-filled form: a pick staged before the restart is shown after it, and taps finish it", async () => {
    const { discord } = world;
    const store = createMemoryStore();
    const channelId = discord.guild.channelId;
    const before = await login(discord);
    const first = createDiscordChannel({ client: before });
    const brokerA = createAskUser({ store, channels: [first] });
    await first.start(brokerA);
    const record = await brokerA.create(ROLLOUT, {
      target: { channel: "discord", conversation: channelId },
      creator: alice,
    });
    const messageId = record.deliveries[0]?.messageId ?? "";
    const user = discord.user(ALICE);
    await discord.waitForResponse(user.select(channelId, messageId, "Regions", ["US", "Asia"]));
    await brokerA.close();
    await first.stop();
    await before.destroy();

    const after = await login(discord);
    const second = createDiscordChannel({ client: after });
    const brokerB = createAskUser({ store, channels: [second] });
    await second.start(brokerB);
    try {
      await brokerB.ready;
      expect(picked(discord.message(channelId, messageId), "Regions")).toEqual(["US", "Asia"]);
      await discord.waitForResponse(user.select(channelId, messageId, "Env", ["Production"]));
      await discord.waitForResponse(user.select(channelId, messageId, "Window", ["Weekend"]));
      const shown = discord.message(channelId, messageId);
      expect(shown?.content).toContain("Selected: Env: Production · Regions: US, Asia · Window: Weekend");
      expect(picked(shown, "Regions")).toEqual(["US", "Asia"]);
      user.click(channelId, messageId, "Send");

      expect(await brokerB.wait(record.id)).toEqual({
        status: "answered",
        answers: { answers: { env: ["Production"], regions: ["US", "Asia"], window: ["Weekend"] } },
      });
      await expectSummary(
        world,
        channelId,
        messageId,
        `✅ Env: Production · Regions: US, Asia · Window: Weekend — ${mention(ALICE)}`,
      );
    } finally {
      await brokerB.close();
      await second.stop();
      await after.destroy();
    }
  });

  it("edits a DM prompt resolved elsewhere while the bot was down", async () => {
    const { discord } = world;
    const store = createMemoryStore();
    const user = { id: "200000000000000005", username: "erin" };
    discord.user(user);
    const before = await login(discord);
    const first = createDiscordChannel({ client: before });
    const brokerA = createAskUser({ store, channels: [first] });
    await first.start(brokerA);
    const record = await brokerA.create(DEPLOY, {
      target: { channel: "discord", conversation: `user:${user.id}` },
    });
    await brokerA.close();
    await first.stop();
    await before.destroy();

    const after = await login(discord);
    const second = createDiscordChannel({ client: after });
    const brokerB = createAskUser({ store, channels: [second] });
    await second.start(brokerB);
    try {
      await brokerB.cancel(record.id);
      const dm = discord.dmChannelId(user.id) ?? "";
      await discord.waitUntil(
        () => discord.message(dm, record.deliveries[0]?.messageId ?? "")?.content === "✖ Deploy — cancelled",
      );
    } finally {
      await brokerB.close();
      await second.stop();
      await after.destroy();
    }
  });
});

describe("platform trouble", () => {
  it("ends the question undeliverable when Discord refuses the first message", async () => {
    const { broker, channelId } = await setup(world);
    world.discord.failNext("createMessage", { status: 403, code: 50001, message: "Missing Access" });

    const result = await broker.ask(DEPLOY, { target: { channel: "discord", conversation: channelId } });

    expect(result).toEqual({ status: "no_answer", reason: "undeliverable" });
    const [record] = await broker.list();
    expect(record?.error).toMatch(/Missing Access/);
  });

  it("ends the question undeliverable for an unknown channel or a malformed target", async () => {
    const { broker } = await setup(world);
    const unknown = await broker.create(DEPLOY, {
      target: { channel: "discord", conversation: "399999999999999999" },
    });
    const malformed = await broker.create(DEPLOY, {
      target: { channel: "discord", conversation: "#general" },
    });
    expect(unknown).toMatchObject({
      status: "undeliverable",
      error: expect.stringMatching(/Unknown Channel/),
    });
    expect(malformed).toMatchObject({
      status: "undeliverable",
      error: expect.stringMatching(/user:<user id>/),
    });
  });

  it("leaves rate limits to discord.js, which waits and sends", async () => {
    const { broker, channelId } = await setup(world);
    world.discord.failNext("createMessage", { status: 429, retryAfter: 0.05 });

    const record = await broker.create(DEPLOY, { target: { channel: "discord", conversation: channelId } });

    expect(record.status).toBe("pending");
    expect(
      world.discord.calls
        .filter((c) => c.route === "createMessage")
        .slice(-2)
        .map((c) => c.status),
    ).toEqual([429, 200]);
    expect(await promptIn(world, channelId)).toBeDefined();
  });
});
