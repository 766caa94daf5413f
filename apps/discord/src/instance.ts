/**
 * The plugin's SDK-bound half: config → discord.js client → the channel, then the gateway connection
 * once the broker exists. Loaded by `channelPlugin.create` only, so a host that lists the plugin without
 * turning Discord on never loads discord.js.
 */
import type { AskUserBroker, ChannelInstance, ChannelPluginContext, LeaseKeeper } from "@ask-user/core";
import { ChannelError, keepLease } from "@ask-user/core";
import { type APIUser, Client, DiscordAPIError, Routes } from "discord.js";
import { createDiscordChannel } from "./channel.ts";
import type { DiscordConfig } from "./config.ts";
import { clientOptions, createGatewayConnection } from "./connection.ts";
import { toChannelError } from "./errors.ts";
import { LEASE_TTL_MS, LOGIN_TIMEOUT_MS } from "./limits.ts";

/** The bot user behind the token (REST only), with a readable error when Discord refuses the token. */
async function whoAmI(client: Client): Promise<APIUser> {
  const method = "GET /users/@me";
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new ChannelError(
            "discord",
            "unreachable",
            `Discord: no answer to ${method} within ${LOGIN_TIMEOUT_MS} ms`,
            {
              method,
            },
          ),
        ),
      LOGIN_TIMEOUT_MS,
    );
  });
  try {
    return (await Promise.race([client.rest.get(Routes.user()), timeout])) as APIUser;
  } catch (error) {
    if (error instanceof DiscordAPIError && error.status === 401) {
      const message = "Discord refused the bot token (401 Unauthorized): check DISCORD_BOT_TOKEN.";
      throw new ChannelError("discord", "refused", message, { method, status: 401, cause: error });
    }
    throw toChannelError(error, method);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Creates the Discord channel from its config: checks the token (`GET /users/@me`: a wrong one fails
 * here, with a readable error) and builds the channel on a REST-only client; nothing is received yet.
 * `initialize(broker)` then attaches the inbound handlers and takes part in the gateway lease. Several
 * instances may run on one token, sharing `context.coordination`: only the holder of the lease
 * `discord:<bot id>:gateway` keeps the gateway (WebSocket) connection — Discord sends every dispatch to
 * every connection — and the others deliver, edit and notify over REST; when the holder stops or dies,
 * another one connects within about ten seconds. Each interaction and message is handled by one
 * instance only. The connection asks for the Guilds, GuildMessages, DirectMessages and MessageContent
 * intents with `Partials.Channel`; if Discord refuses the privileged MessageContent intent (close code
 * 4014), it logs that once and connects without it. Buttons and modals that are not ask-user's and that
 * nobody answered are acknowledged, so their users do not see "This interaction failed". Discord pushes
 * over the gateway, so there is no `handleWebhook` and nothing to `listen` on.
 *
 * @example
 * const discord = await create({ config: readDiscordConfig(process.env), logger, coordination: store, instanceId });
 * const askUser = createAskUser({ store, channels: [discord.channel] });
 * await discord.initialize(askUser);
 * console.log(discord.describe); // discord (@ask_bot, gateway)
 */
export async function create(context: ChannelPluginContext<DiscordConfig>): Promise<ChannelInstance> {
  const { config, logger, coordination, instanceId } = context;
  const stopping = new AbortController();
  const hub = new Client(clientOptions(config.apiUrl, stopping.signal, true));
  hub.rest.setToken(config.token);
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
  const mounted = createDiscordChannel({
    client: hub,
    logger,
    acknowledgeUnhandled: true,
    coordination,
    botId: me.id,
  });
  const connection = createGatewayConnection({
    hub,
    token: config.token,
    apiUrl: config.apiUrl,
    logger,
    onNoMessageContent: () => mounted.noMessageContent(),
  });
  const lease = `discord:${me.id}:gateway`;
  let keeper: LeaseKeeper | undefined;
  let initialized = false;
  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      mounted.detach();
      await keeper?.stop();
      await connection.close();
      await closeHub();
    })();
    return stopped;
  };

  const initialize = async (broker: AskUserBroker): Promise<void> => {
    mounted.attach(broker);
    let initial: Promise<void> | undefined;
    try {
      const first = await coordination.acquireLease(lease, instanceId, LEASE_TTL_MS);
      // The connection is opened here the first time (its errors are initialize's), by the keeper later.
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
      initialized = true;
    } catch (error) {
      await stop();
      throw toChannelError(error, "connect to the gateway");
    }
  };

  return {
    channel: mounted.channel,
    /**
     * `discord (@ask_bot, gateway)` on the instance holding the gateway connection, `discord (@ask_bot,
     * REST; another instance holds the gateway)` on the others; read it after `initialize`.
     */
    get describe() {
      const mode = connection.client
        ? `gateway${mounted.messageContent ? "" : ", no Message Content intent"}`
        : initialized
          ? "REST; another instance holds the gateway"
          : "REST; not receiving yet";
      return `discord (@${me.username}, ${mode})`;
    },
    initialize,
    stop,
  };
}
