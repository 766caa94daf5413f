/**
 * Two connections on one token both receive every dispatch (a host running two processes, or the moment
 * a gateway connection changes hands). With one shared store, each tap and message is handled once: one
 * interaction response, one notice, no refusal from the sibling.
 */
import { createAskUser, createMemoryStore, type QuestionStore } from "@ask-user/core";
import type { AskUserBroker } from "@ask-user/core/channel";
import { Client, Events, GatewayIntentBits, type Message, Partials } from "discord.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createDiscordChannel } from "../src/index.ts";
import { ALICE, BOB, closeWorld, createWorld, DEPLOY, mention, type World } from "./harness.ts";

let world: World;
let second: Client;
beforeAll(async () => {
  world = await createWorld();
  second = new Client({
    intents: [
      GatewayIntentBits.Guilds,
      GatewayIntentBits.GuildMessages,
      GatewayIntentBits.DirectMessages,
      GatewayIntentBits.MessageContent,
    ],
    partials: [Partials.Channel],
    rest: { api: world.discord.apiUrl },
  });
  const ready = new Promise<void>((resolve) => second.once(Events.ClientReady, () => resolve()));
  await second.login(world.discord.token);
  await ready;
});
afterAll(async () => {
  await second?.destroy();
  await closeWorld(world);
});

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const quiet = { warn: () => undefined, error: () => undefined, info: () => undefined };
let channels = 0;

/** Two instances — one per connection — over one store, each with its broker; a fresh channel. */
async function twoInstances(): Promise<{
  brokers: AskUserBroker[];
  store: QuestionStore;
  channelId: string;
  unhandled: Message[];
}> {
  const store = createMemoryStore();
  const unhandled: Message[] = [];
  const brokers = [world.client, second].map((client, i) => {
    const mounted = createDiscordChannel({
      client,
      logger: quiet,
      coordination: store,
      onUnhandledMessage: (message) => unhandled.push(message),
    });
    const broker = createAskUser({ store, channels: [mounted], logger: quiet, instanceId: `i${i}` });
    void mounted.start(broker); // attaches its listeners at once
    cleanups.push(() => mounted.stop());
    cleanups.push(() => broker.close());
    return broker;
  });
  channels++;
  const channelId = `3100000000000${String(channels).padStart(5, "0")}`;
  world.discord.addChannel({ id: channelId, name: `dedupe-${channels}` });
  await world.discord.waitUntil(
    () => world.client.channels.cache.has(channelId) && second.channels.cache.has(channelId),
  );
  return { brokers, store, channelId, unhandled };
}

const acknowledgedTwice = () => world.discord.calls.filter((c) => c.error?.code === 40060);

describe("two connections, one store", () => {
  it("answers a tap once: one interaction response and no refusal from the sibling", async () => {
    const { brokers, channelId } = await twoInstances();
    const [a] = brokers;
    const asked = a?.ask(DEPLOY, {
      target: { channel: "discord", conversation: channelId },
      creator: { channel: "discord", userId: ALICE.id },
    });
    const prompt = await world.discord.waitUntil(() => world.discord.messages(channelId)[0]);

    const tap = world.discord.user(ALICE).click(channelId, prompt.id, "Production");
    expect(await asked).toMatchObject({ answers: { answers: { deploy_target: ["Production"] } } });
    expect(await world.discord.waitForResponse(tap)).toMatchObject({ type: 7 });
    await new Promise((resolve) => setTimeout(resolve, 300)); // what a sibling would do, it has done now
    expect(acknowledgedTwice()).toEqual([]);
    expect(world.discord.ephemerals(ALICE.id)).toEqual([]);
    expect(world.discord.message(channelId, prompt.id)?.content).toBe(
      `✅ Deploy: Production — ${mention(ALICE)}`,
    );
  });

  it("refuses someone else's tap once, with one ephemeral notice", async () => {
    const { brokers, channelId } = await twoInstances();
    brokers[1]
      ?.ask(DEPLOY, {
        target: { channel: "discord", conversation: channelId },
        creator: { channel: "discord", userId: ALICE.id, displayName: mention(ALICE) },
      })
      .catch(() => undefined); // still pending when the test ends
    const prompt = await world.discord.waitUntil(() => world.discord.messages(channelId)[0]);

    const tap = world.discord.user(BOB).click(channelId, prompt.id, "Production");
    expect(await world.discord.waitForResponse(tap)).toMatchObject({ type: 4 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(world.discord.ephemerals(BOB.id).map((m) => m.content)).toEqual([
      `This question is for ${mention(ALICE)}.`,
    ]);
    expect(acknowledgedTwice()).toEqual([]);
  });

  it("reads a text reply once: one confirmation reaction, and a message for nobody is passed on once", async () => {
    const { brokers, channelId, unhandled } = await twoInstances();
    const asked = brokers[0]?.ask(DEPLOY, {
      target: { channel: "discord", conversation: channelId },
      creator: { channel: "discord", userId: ALICE.id },
    });
    const prompt = await world.discord.waitUntil(() => world.discord.messages(channelId)[0]);

    const reply = world.discord.user(ALICE).reply(channelId, prompt.id, "2");
    expect(await asked).toMatchObject({ answers: { answers: { deploy_target: ["Production"] } } });
    world.discord.user(ALICE).send(channelId, "lunch, anyone?");
    await world.discord.waitUntil(() => unhandled.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 300));

    const fromBot = world.discord.messages(channelId).filter((m) => m.author.id === world.discord.bot.id);
    expect(fromBot.map((m) => m.content)).toEqual([`✅ Deploy: Production — ${mention(ALICE)}`]);
    expect(world.discord.message(channelId, reply.id)?.reactions).toEqual([
      { count: 1, me: true, emoji: { id: null, name: "✅" } },
    ]);
    expect(world.discord.calls.filter((c) => c.route === "createReaction")).toHaveLength(1);
    // Every message that answered nothing — the bot's own included — is passed on by one instance.
    const lunch = world.discord.messages(channelId).find((m) => m.content === "lunch, anyone?");
    expect(unhandled.map((m) => m.id).sort()).toEqual([...fromBot.map((m) => m.id), lunch?.id].sort());
  });
});
