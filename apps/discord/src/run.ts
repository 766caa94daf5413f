/** env → discord.js client → the mounted channel: what the gateway (and `src/main.ts`) start. */
import { randomUUID } from "node:crypto";
import {
  type AskUserBroker,
  type Channel,
  type Coordination,
  consoleLogger,
  createMemoryCoordination,
  keepLease,
  type LeaseKeeper,
} from "@ask-user/core";
import { type APIUser, Client, DiscordAPIError, Routes } from "discord.js";
import { createDiscordChannel, type DiscordChannel } from "./channel.ts";
import { clientOptions, createGatewayConnection } from "./connection.ts";
import type { DiscordLogger } from "./inbound.ts";
import { LEASE_TTL_MS, LOGIN_TIMEOUT_MS } from "./limits.ts";

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
  /**
   * One banner line: `discord (@ask_bot, gateway)` on the instance holding the gateway connection,
   * `discord (@ask_bot, REST; another instance holds the gateway)` on the others.
   */
  describe: string;
  /**
   * The channel's own client (for hosts that want to add listeners): it sends over REST, and while this
   * instance holds the gateway connection every event of that connection is re-emitted on it. A button
   * or modal that no listener answers within `deferAfterMs` is acknowledged for its user.
   */
  client: Client;
  /** True while this instance holds the gateway connection (the lease). */
  readonly holdsGateway: boolean;
  /** Stops within a couple of seconds, even while Discord is unreachable; hands the lease on. */
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

/** The bot user behind the token (REST only), with a readable error when Discord refuses the token. */
async function whoAmI(client: Client): Promise<APIUser> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`Discord: no answer to GET /users/@me within ${LOGIN_TIMEOUT_MS} ms`)),
      LOGIN_TIMEOUT_MS,
    );
  });
  try {
    return (await Promise.race([client.rest.get(Routes.user()), timeout])) as APIUser;
  } catch (error) {
    if (error instanceof DiscordAPIError && error.status === 401)
      throw new Error("Discord refused the bot token (401 Unauthorized): check DISCORD_BOT_TOKEN.");
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Starts the Discord channel from the environment. Several instances may run on one token, sharing the
 * store's `coordination`: only the holder of the lease `discord:<bot id>:gateway` keeps the gateway
 * (WebSocket) connection — Discord sends every dispatch to every connection — and the others deliver,
 * edit and notify over REST; when the holder stops or dies, another one connects within about ten
 * seconds. Each interaction and message is handled by one instance only. The connection asks for the
 * Guilds, GuildMessages, DirectMessages and MessageContent intents with `Partials.Channel`; if Discord
 * refuses the privileged MessageContent intent (close code 4014), it logs that once and connects without
 * it. Buttons and modals that are not ask-user's and that nobody answered are acknowledged, so their
 * users do not see "This interaction failed".
 *
 * @example
 * const discord = await runDiscord({ env: process.env, broker: () => askUser, coordination: store, instanceId });
 * const askUser = createAskUser({ store, channels: [discord.channel] });
 * console.log(discord.describe); // discord (@ask_bot, gateway)
 */
export async function runDiscord(options: RunDiscordOptions): Promise<RunningDiscord> {
  const env = readDiscordEnv(options.env);
  const logger: DiscordLogger = options.logger ?? consoleLogger;
  const coordination = options.coordination ?? createMemoryCoordination();
  const instanceId = options.instanceId ?? randomUUID();
  const stopping = new AbortController();
  const hub = new Client(clientOptions(env.apiUrl, stopping.signal, true));
  hub.rest.setToken(env.token);
  const closeHub = async () => {
    stopping.abort();
    await hub.destroy();
  };
  let me: APIUser;
  try {
    me = await whoAmI(hub);
  } catch (error) {
    await closeHub();
    throw error;
  }
  const mounted: DiscordChannel = createDiscordChannel({
    client: hub,
    broker: options.broker,
    logger,
    acknowledgeUnhandled: true,
    coordination,
    botId: me.id,
    ...(options.deferAfterMs === undefined ? {} : { deferAfterMs: options.deferAfterMs }),
  });
  const connection = createGatewayConnection({
    hub,
    token: env.token,
    apiUrl: env.apiUrl,
    logger,
    onNoMessageContent: () => mounted.noMessageContent(),
  });
  const lease = `discord:${me.id}:gateway`;
  let initial: Promise<void> | undefined;
  let keeper: LeaseKeeper | undefined;
  const stop = async () => {
    mounted.detach();
    await keeper?.stop();
    await connection.close();
    await closeHub();
  };
  try {
    const first = await coordination.acquireLease(lease, instanceId, LEASE_TTL_MS);
    // The connection is opened here the first time (its errors are runDiscord's), by the keeper later.
    initial = first ? connection.connect() : undefined;
    keeper = keepLease({
      coordination,
      name: lease,
      holder: instanceId,
      ttlMs: LEASE_TTL_MS,
      logger,
      onAcquired: () => {
        if (initial === undefined) connection.keepConnecting();
      },
      onLost: () => connection.close(),
    });
    await initial;
    initial = undefined;
  } catch (error) {
    await stop();
    throw error;
  }
  const user = me.username;
  const mode = connection.client
    ? `gateway${mounted.messageContent ? "" : ", no Message Content intent"}`
    : "REST; another instance holds the gateway";
  return {
    channel: mounted.channel,
    client: hub,
    describe: `discord (@${user}, ${mode})`,
    get holdsGateway() {
      return connection.client !== undefined;
    },
    stop,
  };
}
