/**
 * Several instances on one bot token sharing one store (SPEC §9), with the real discord.js against the
 * fake: one gateway connection (the lease holder), REST on the others, every tap and message handled
 * once, a takeover within seconds when the holder goes, and a bounded stop while Discord is away.
 */
import { type ChannelInstance, createAskUser, createMemoryStore, type QuestionStore } from "@ask-user/core";
import type { AskUserBroker, Coordination } from "@ask-user/core/channel";
import { createFakeDiscord, type FakeDiscord } from "@ask-user/testkit/discord";
import { afterEach, describe, expect, it } from "vitest";
import { channelPlugin } from "../src/plugin.ts";
import { ALICE, DEPLOY, mention } from "./harness.ts";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const quiet = { warn: () => undefined, error: () => undefined, info: () => undefined };

async function fake(): Promise<FakeDiscord> {
  const discord = await createFakeDiscord();
  cleanups.push(() => discord.close());
  return discord;
}

/** One instance: the plugin and a broker over the shared store, as the gateway wires them. */
interface Instance {
  running: ChannelInstance;
  broker: AskUserBroker;
}

const GATEWAY = "discord (@ask_user_bot, gateway)";
const REST = "discord (@ask_user_bot, REST; another instance holds the gateway)";
const holdsGateway = (instance: Instance) => instance.running.describe === GATEWAY;

async function instance(
  discord: FakeDiscord,
  store: QuestionStore,
  id: string,
  coordination: Coordination = store,
): Promise<Instance> {
  const config = channelPlugin.readConfig({
    DISCORD_BOT_TOKEN: discord.token,
    DISCORD_API_URL: discord.apiUrl,
  });
  const running = await channelPlugin.create({ config, logger: quiet, coordination, instanceId: id });
  const broker = createAskUser({
    store,
    channels: [running],
    logger: quiet,
    instanceId: id,
    answerers: "conversation",
  });
  cleanups.push(async () => {
    await running.stop();
    await broker.close();
  });
  await running.start(broker);
  return { running, broker };
}

const connected = (discord: FakeDiscord) => discord.sessions().filter((s) => s.connected).length;

/** The store as coordination, until `kill()`: then every call fails (a holder whose store is gone). */
function killable(store: QuestionStore): Coordination & { kill(): void } {
  let dead = false;
  const check = () => {
    if (dead) throw new Error("instance is gone");
  };
  return {
    kill: () => {
      dead = true;
    },
    async firstSeen(key, ttlMs) {
      check();
      return store.firstSeen(key, ttlMs);
    },
    async acquireLease(name, holder, ttlMs) {
      check();
      return store.acquireLease(name, holder, ttlMs);
    },
    async releaseLease(name, holder) {
      check();
      await store.releaseLease(name, holder);
    },
  };
}

describe("several instances on one token", () => {
  it("keeps exactly one gateway connection, on the lease holder; the other sends over REST", async () => {
    const discord = await fake();
    const store = createMemoryStore();
    const a = await instance(discord, store, "a");
    const b = await instance(discord, store, "b");

    expect(a.running.describe).toBe(GATEWAY);
    expect(b.running.describe).toBe(REST);
    await new Promise((resolve) => setTimeout(resolve, 2_500)); // a few lease renewals later
    expect(discord.sessions()).toHaveLength(1);
    expect(connected(discord)).toBe(1);

    // B delivers the prompt over REST; the tap arrives on A's connection and answers B's ask.
    const channelId = discord.guild.channelId;
    const asked = b.broker.ask(DEPLOY, { target: { channel: "discord", conversation: channelId } });
    const prompt = await discord.waitUntil(() => discord.messages(channelId)[0]);
    const tap = discord.user(ALICE).click(channelId, prompt.id, "Production");
    expect(await asked).toMatchObject({ answers: { answers: { deploy_target: ["Production"] } } });
    expect(await discord.waitForResponse(tap)).toMatchObject({ type: 7 });
    expect(discord.message(channelId, prompt.id)?.content).toBe(`✅ Deploy: Production — ${mention(ALICE)}`);
  }, 20_000);

  it("hands the connection over within 10 s when the holder dies, and taps keep working", async () => {
    const discord = await fake();
    const store = createMemoryStore();
    const doomed = killable(store);
    const a = await instance(discord, store, "a", doomed);
    const b = await instance(discord, store, "b");
    expect(b.running.describe).toBe(REST);

    doomed.kill();
    const started = Date.now();
    await discord.waitUntil(() => holdsGateway(b) && connected(discord) === 1, 10_000);
    await discord.waitUntil(() => discord.sessions().at(-1)?.connected, 10_000);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(holdsGateway(a)).toBe(false);
    expect(connected(discord)).toBe(1);

    const channelId = discord.guild.channelId;
    const asked = b.broker.ask(DEPLOY, { target: { channel: "discord", conversation: channelId } });
    const prompt = await discord.waitUntil(() => discord.messages(channelId)[0]);
    const tap = discord.user(ALICE).click(channelId, prompt.id, "Staging (Recommended)");
    expect(await discord.waitForResponse(tap)).toMatchObject({ type: 7 });
    expect(await asked).toMatchObject({ answers: { answers: { deploy_target: ["Staging (Recommended)"] } } });
  }, 30_000);

  it("hands the connection over within a lease renewal when the holder stops", async () => {
    const discord = await fake();
    const store = createMemoryStore();
    const a = await instance(discord, store, "a");
    const b = await instance(discord, store, "b");

    await a.running.stop();
    expect(connected(discord)).toBe(0);
    const started = Date.now();
    await discord.waitUntil(() => holdsGateway(b) && connected(discord) === 1, 5_000);
    expect(Date.now() - started).toBeLessThan(4_000);

    const channelId = discord.guild.channelId;
    const asked = b.broker.ask(DEPLOY, { target: { channel: "discord", conversation: channelId } });
    const prompt = await discord.waitUntil(() => discord.messages(channelId)[0]);
    discord.user(ALICE).click(channelId, prompt.id, "Skip");
    expect(await asked).toEqual({ status: "no_answer", reason: "skipped" });
  }, 20_000);
});

describe("a connection Discord ends", () => {
  it("is opened again when discord.js gives it up (close code 4004), and taps work", async () => {
    const discord = await fake();
    const store = createMemoryStore();
    const a = await instance(discord, store, "a");

    discord.dropConnections(4004); // Authentication failed: discord.js does not reconnect by itself
    await discord.waitUntil(() => discord.sessions().length === 2 && connected(discord) === 1, 10_000);
    expect(holdsGateway(a)).toBe(true);

    const channelId = discord.guild.channelId;
    const asked = a.broker.ask(DEPLOY, { target: { channel: "discord", conversation: channelId } });
    const prompt = await discord.waitUntil(() => discord.messages(channelId)[0]);
    discord.user(ALICE).click(channelId, prompt.id, "Nowhere");
    expect(await asked).toMatchObject({ answers: { answers: { deploy_target: ["Nowhere"] } } });
  }, 20_000);
});

describe("delivering again", () => {
  it("posts a prompt once when it is delivered twice (a repair after a crash mid-send)", async () => {
    const discord = await fake();
    const store = createMemoryStore();
    const { running, broker } = await instance(discord, store, "a");
    const channelId = discord.guild.channelId;
    const record = await broker.create(DEPLOY, { target: { channel: "discord", conversation: channelId } });
    const first = await discord.waitUntil(() => discord.messages(channelId)[0]);

    const again = await running.deliver({ record, locale: "en", text: "", buttons: true });
    expect(again.messageId).toBe(first.id);
    expect(discord.messages(channelId)).toHaveLength(1);
  }, 20_000);
});

describe("stopping", () => {
  it("ends within 2 s while Discord is unreachable and discord.js is reconnecting", async () => {
    const discord = await fake();
    const a = await instance(discord, createMemoryStore(), "a");
    await discord.close(); // Discord goes away: discord.js keeps trying to reconnect
    await new Promise((resolve) => setTimeout(resolve, 500));

    const started = Date.now();
    await a.running.stop();
    expect(Date.now() - started).toBeLessThan(2_000);
  }, 20_000);

  it("ends within 2 s while taking over hangs on Discord, and never connects afterwards", async () => {
    const discord = await fake();
    const store = createMemoryStore();
    const a = await instance(discord, store, "a");
    const b = await instance(discord, store, "b");
    const held = discord.hold("getGatewayBot");
    await a.running.stop();
    await discord.waitUntil(() => held.calls.length === 1, 5_000); // B is logging in

    const started = Date.now();
    await b.running.stop();
    expect(Date.now() - started).toBeLessThan(2_000);
    held.release();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(connected(discord)).toBe(0);
  }, 20_000);
});
