/**
 * Shared harness for the Discord end-to-end tests: one fake Discord and one real discord.js client per
 * test file (login is the slow part), and per test a fresh broker, a freshly mounted channel and a new
 * guild channel, so tests stay independent. Everything is closed afterwards.
 */
import { type AskUserOptions, createAskUser, createMemoryStore, type QuestionStore } from "@ask-user/core";
import type { AskUserBroker, Clock } from "@ask-user/core/channel";
import { rolloutInput } from "@ask-user/core/testing";
import {
  createFakeDiscord,
  type DcComponent,
  type FakeDiscord,
  type FakeDiscordOptions,
  type FakeMessage,
} from "@ask-user/testkit/discord";
import { Client, Events, GatewayIntentBits, Partials } from "discord.js";
import { afterEach, expect } from "vitest";
import { createDiscordChannel, type DiscordChannel, type DiscordChannelOptions } from "../src/index.ts";

export const ALICE = { id: "200000000000000001", username: "alice" };
export const BOB = { id: "200000000000000002", username: "bob" };

/** How Discord names a user without pinging them: `<@id>`. */
export const mention = (user: { id: string }) => `<@${user.id}>`;

/** One single-select question with descriptions. */
export const DEPLOY = {
  questions: [
    {
      id: "deploy_target",
      header: "Deploy",
      question: "Where should I deploy the release?",
      options: [
        { label: "Staging (Recommended)", description: "Safe first step" },
        { label: "Production", description: "Goes live at once" },
        { label: "Nowhere" },
      ],
    },
  ],
};

/** Three questions, one of them multi-select: a form on every platform (core's sample). */
export const ROLLOUT = rolloutInput;

/** A fake Discord with a logged-in discord.js client. */
export interface World {
  discord: FakeDiscord;
  client: Client;
}

const INTENTS = [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.DirectMessages];

/** Starts a fake and logs a real client in (call in beforeAll). */
export async function createWorld(
  options: { fake?: FakeDiscordOptions; messageContent?: boolean } = {},
): Promise<World> {
  const discord = await createFakeDiscord(options.fake);
  const client = new Client({
    intents: options.messageContent === false ? INTENTS : [...INTENTS, GatewayIntentBits.MessageContent],
    partials: [Partials.Channel],
    rest: { api: discord.apiUrl },
  });
  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  await client.login(discord.token);
  await ready;
  return { discord, client };
}

/** Stops the client, then the fake (call in afterAll). */
export async function closeWorld(world: World | undefined): Promise<void> {
  if (!world) return;
  await world.client.destroy();
  await world.discord.close();
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Log lines the channel wrote. */
export interface Logs {
  warn: string[];
  error: string[];
  info: string[];
}

/** A broker over a store with the Discord channel mounted on the world's client. */
export interface Setup {
  broker: AskUserBroker;
  mounted: DiscordChannel;
  store: QuestionStore;
  logs: Logs;
  /** A new guild text channel for this test. */
  channelId: string;
}

let channels = 0;

/** Mounts a channel and creates a broker for one test; both go away in afterEach. */
export async function setup(
  world: World,
  options: {
    store?: QuestionStore;
    clock?: Clock;
    answerers?: AskUserOptions["answerers"];
    channel?: Partial<Omit<DiscordChannelOptions, "client">>;
    locale?: string;
  } = {},
): Promise<Setup> {
  const logs: Logs = { warn: [], error: [], info: [] };
  const logger = {
    warn: (_: Record<string, unknown>, message: string) => logs.warn.push(message),
    error: (_: Record<string, unknown>, message: string) => logs.error.push(message),
    info: (_: Record<string, unknown>, message: string) => logs.info.push(message),
  };
  const store = options.store ?? createMemoryStore();
  const mounted = createDiscordChannel({ client: world.client, logger, ...options.channel });
  const broker = createAskUser({
    store,
    channels: [mounted],
    logger,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.answerers ? { answerers: options.answerers } : {}),
    ...(options.locale ? { locale: options.locale } : {}),
  });
  await mounted.start(broker);
  cleanups.push(() => mounted.stop());
  cleanups.push(() => broker.close());
  channels++;
  const channelId = `3000000000000${String(channels).padStart(5, "0")}`;
  world.discord.addChannel({ id: channelId, name: `test-${channels}` });
  await waitFor(() => world.client.channels.cache.has(channelId));
  return { broker, mounted, store, logs, channelId };
}

/** Polls `check` (sync or async) every 10 ms until truthy; rejects after `timeoutMs`. */
export async function waitFor<T>(
  check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  timeoutMs = 3000,
): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The bot's first message in a channel (the prompt), once it is there. */
export function promptIn(world: World, channelId: string): Promise<FakeMessage> {
  return world.discord.waitUntil(() =>
    world.discord.messages(channelId).find((m) => m.author.id === world.discord.bot.id),
  );
}

/** The REST edits of one message, as the fake recorded them. */
export function editsOf(world: World, messageId: string) {
  return world.discord.calls.filter((c) => c.route === "editMessage" && c.path.endsWith(messageId));
}

/** Labels of a message's buttons, row by row. */
export function buttonRows(message: FakeMessage | undefined): string[][] {
  return (message?.components ?? []).map((row) => (row.components ?? []).map((c) => String(c.label)));
}

/** A message's string selects, in order (rows flattened). */
export function selectsOf(message: FakeMessage | undefined): DcComponent[] {
  return (message?.components ?? []).flatMap((row) => (row.components ?? []).filter((c) => c.type === 3));
}

/** The labels a message's select with this placeholder shows as selected (its `default` options). */
export function picked(message: FakeMessage | undefined, placeholder: string): string[] {
  const select = selectsOf(message).find((c) => c.placeholder === placeholder);
  const options = (select?.options ?? []) as Array<{ label: string; default?: boolean }>;
  return options.filter((o) => o.default === true).map((o) => o.label);
}

/** Waits until message `messageId` reads `summary`, then checks its buttons are gone (the finalised prompt). */
export async function expectSummary(world: World, channelId: string, messageId: string, summary: string) {
  await world.discord.waitUntil(() => world.discord.message(channelId, messageId)?.content === summary);
  expect(world.discord.message(channelId, messageId)?.components).toEqual([]);
}
