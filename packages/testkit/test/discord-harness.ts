/** Shared by the fake Discord tests: a fake per test, real discord.js clients, everything closed afterwards. */
import { Client, type ClientOptions, Events, GatewayIntentBits, type Message, Partials } from "discord.js";
import { afterEach } from "vitest";
import { createFakeDiscord, type FakeDiscord, type FakeDiscordOptions } from "../src/discord/index.ts";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Every intent the tests use, Message Content last (`ALL.slice(0, 3)` is without it). */
export const ALL = [
  GatewayIntentBits.Guilds,
  GatewayIntentBits.GuildMessages,
  GatewayIntentBits.DirectMessages,
  GatewayIntentBits.MessageContent,
];

/** A fake, closed after the test. */
export async function fake(options: FakeDiscordOptions = {}): Promise<FakeDiscord> {
  const discord = await createFakeDiscord(options);
  cleanups.push(() => discord.close());
  return discord;
}

/** Runs `cleanup` after the test (before the fake closes, if registered after it). */
export function onCleanup(cleanup: () => Promise<void>): void {
  cleanups.push(cleanup);
}

/** A logged-in, ready discord.js client, destroyed after the test. */
export async function connect(discord: FakeDiscord, options: Partial<ClientOptions> = {}): Promise<Client> {
  const client = new Client({
    intents: ALL,
    partials: [Partials.Channel],
    rest: { api: discord.apiUrl },
    ...options,
  });
  cleanups.push(() => client.destroy());
  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  await client.login(discord.token);
  await ready;
  return client;
}

/** The next message the client sees that passes `filter`. */
export function nextMessage(
  client: Client,
  filter: (message: Message) => boolean = () => true,
): Promise<Message> {
  return new Promise((resolve) => {
    const listener = (message: Message) => {
      if (!filter(message)) return;
      client.off(Events.MessageCreate, listener);
      resolve(message);
    };
    client.on(Events.MessageCreate, listener);
  });
}
