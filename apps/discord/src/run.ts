/** env → discord.js client → the mounted channel: what the gateway (and `src/main.ts`) start. */
import { type AskUserBroker, type Channel, type Coordination, consoleLogger } from "@ask-user/core";
import { Client, Events, GatewayIntentBits, Partials } from "discord.js";
import { createDiscordChannel, type DiscordChannel } from "./channel.ts";
import type { DiscordLogger } from "./inbound.ts";
import { LOGIN_TIMEOUT_MS } from "./limits.ts";

/** The environment variables `runDiscord` reads. */
export interface DiscordEnv {
  /** The bot token (required). */
  token: string;
  /** REST base without the version, e.g. `http://127.0.0.1:PORT/api` (tests, proxies). */
  apiUrl?: string;
}

/** Options of {@link runDiscord}. */
export interface RunDiscordOptions {
  env: Record<string, string | undefined>;
  broker: () => AskUserBroker;
  logger?: DiscordLogger;
  /** Passed on to {@link createDiscordChannel}. */
  deferAfterMs?: number;
  /**
   * The store's coordination, shared by every instance (SPEC §9). Without it the channel keeps to this
   * process: it handles what its own connection receives and always connects.
   */
  coordination?: Coordination;
  /** This instance's id (holder of the gateway lease). Default: a random id. */
  instanceId?: string;
}

/** A started Discord channel. */
export interface RunningDiscord {
  channel: Channel;
  /** One banner line, e.g. `discord (@ask_bot, gateway)`. */
  describe: string;
  /**
   * The client it logged in (for hosts that want to add listeners). The client is the channel's own, so
   * a button or modal that no listener answers within `deferAfterMs` is acknowledged for its user.
   */
  client: Client;
  stop(): Promise<void>;
}

/**
 * Reads `DISCORD_BOT_TOKEN` (required) and `DISCORD_API_URL` (optional). Throws a readable error when
 * the token is missing; never includes the token in messages.
 */
export function readDiscordEnv(env: Record<string, string | undefined>): DiscordEnv {
  const token = env.DISCORD_BOT_TOKEN?.trim();
  if (!token) throw new Error("DISCORD_BOT_TOKEN is not set: create a bot in the Discord Developer Portal.");
  const apiUrl = env.DISCORD_API_URL?.trim().replace(/\/+$/, "");
  if (apiUrl) {
    if (!/^https?:\/\//.test(apiUrl))
      throw new Error(`DISCORD_API_URL must be an http(s) URL, got "${apiUrl}".`);
    return { token, apiUrl };
  }
  return { token };
}

const BASE_INTENTS = [
  GatewayIntentBits.Guilds,
  GatewayIntentBits.GuildMessages,
  GatewayIntentBits.DirectMessages,
];

async function login(client: Client, token: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`Discord: not ready after ${LOGIN_TIMEOUT_MS} ms`)),
      LOGIN_TIMEOUT_MS,
    );
  });
  try {
    await Promise.race([client.login(token).then(() => ready), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Starts the Discord channel from the environment: a discord.js client with the Guilds, GuildMessages,
 * DirectMessages and MessageContent intents and `Partials.Channel`. If Discord refuses the privileged
 * MessageContent intent (close code 4014), it logs that once and connects without it. The client is the
 * channel's own: buttons and modals that are not ask-user's and that nobody answered are acknowledged,
 * so their users do not see "This interaction failed".
 *
 * @example
 * const discord = await runDiscord({ env: process.env, broker: () => askUser });
 * const askUser = createAskUser({ store, channels: [discord.channel] });
 * console.log(discord.describe); // discord (@ask_bot, gateway)
 */
export async function runDiscord(options: RunDiscordOptions): Promise<RunningDiscord> {
  const env = readDiscordEnv(options.env);
  const logger: DiscordLogger = options.logger ?? consoleLogger;
  const start = async (messageContent: boolean) => {
    const client = new Client({
      intents: messageContent ? [...BASE_INTENTS, GatewayIntentBits.MessageContent] : BASE_INTENTS,
      partials: [Partials.Channel],
      ...(env.apiUrl === undefined ? {} : { rest: { api: env.apiUrl } }),
    });
    const mounted: DiscordChannel = createDiscordChannel({
      client,
      broker: options.broker,
      logger,
      acknowledgeUnhandled: true,
      ...(options.deferAfterMs === undefined ? {} : { deferAfterMs: options.deferAfterMs }),
    });
    try {
      await login(client, env.token);
      return { client, mounted };
    } catch (error) {
      mounted.detach();
      await client.destroy();
      throw error;
    }
  };
  let started: Awaited<ReturnType<typeof start>>;
  try {
    started = await start(true);
  } catch (error) {
    if (!(error instanceof Error && /disallowed intents/i.test(error.message))) throw error;
    logger.info?.(
      { channel: "discord" },
      "Discord refused the Message Content intent (not enabled for this app): connecting without it.",
    );
    started = await start(false);
  }
  const { client, mounted } = started;
  const user = client.user?.username ?? "unknown";
  const notes = mounted.messageContent ? "" : ", no Message Content intent";
  return {
    channel: mounted.channel,
    client,
    describe: `discord (@${user}, gateway${notes})`,
    async stop() {
      mounted.detach();
      await client.destroy();
    },
  };
}
