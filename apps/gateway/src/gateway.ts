import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { type AskUserBroker, type Clock, createAskUser, type QuestionStore } from "@ask-user/core";
import { createRedisStore } from "@ask-user/redis";
import { createSqliteStore } from "@ask-user/sqlite";
import type { Logger } from "pino";
import type { QuestionBackend } from "./backend.ts";
import { CHANNEL_PLUGINS, type ChannelPlugin, type RunningChannel } from "./channels.ts";
import { type GatewayConfig, loadConfig } from "./config.ts";
import { createHttpServer, type HttpServer, type WebhookHandler } from "./http/server.ts";
import { createLocalBackend } from "./local-backend.ts";
import { brokerLogger, createLogger } from "./log.ts";
import { createMcpHttpHandler, type McpTransportSecurity } from "./mcp/http.ts";

const DAY_MS = 86_400_000;
const PRUNE_INTERVAL_MS = 3_600_000;

/** Options of `startGateway`; everything else comes from the environment. */
export interface StartOptions {
  env?: Record<string, string | undefined>;
  logger?: Logger;
  clock?: Clock;
  /** Channels to consider (default: every known plugin). */
  plugins?: ChannelPlugin[];
}

/** A running gateway. */
export interface RunningGateway {
  config: GatewayConfig;
  /** Base URL of the HTTP API, e.g. `http://127.0.0.1:7310`. */
  url: string;
  broker: AskUserBroker;
  backend: QuestionBackend;
  channels: RunningChannel[];
  http: HttpServer;
  logger: Logger;
  /** Deletes ended questions older than the retention period now; how many (runs hourly by itself). */
  prune(): Promise<number>;
  /** Drains: stops intake, ends streams, keeps pending questions in the store, closes the database. */
  close(): Promise<void>;
}

/**
 * Starts the gateway: SQLite store, every channel whose variables are set, the broker (recovering
 * pending questions), the HTTP API with SSE and MCP.
 *
 * @example
 * const gateway = await startGateway({ env: process.env });
 * console.log(`HTTP API at ${gateway.url}/v1`);
 */
export async function startGateway(options: StartOptions = {}): Promise<RunningGateway> {
  const env = options.env ?? process.env;
  const plugins = (options.plugins ?? CHANNEL_PLUGINS).filter((plugin) => plugin.enabled(env));
  const config = loadConfig(
    env,
    plugins.map((plugin) => plugin.name),
  );
  const logger = options.logger ?? createLogger(config.logLevel);

  const store = await openStore(config, logger);
  const instanceId = config.instanceId ?? randomUUID();
  let broker: AskUserBroker | undefined;
  const channels: RunningChannel[] = [];
  try {
    for (const plugin of plugins) {
      channels.push(
        await plugin.start({
          env,
          logger: logger.child({ channel: plugin.name }),
          coordination: store,
          instanceId,
          broker: () => {
            if (!broker) throw new Error("the broker is not ready yet");
            return broker;
          },
        }),
      );
    }
    broker = createAskUser({
      store,
      channels: channels.map((running) => running.channel),
      locale: config.locale,
      answerers: config.answerers,
      logger: brokerLogger(logger),
      instanceId,
      claimMs: config.claimSeconds * 1000,
      ...(options.clock ? { clock: options.clock } : {}),
    });
    await broker.ready;
  } catch (error) {
    for (const running of channels) await running.stop().catch(() => undefined);
    await store.close();
    throw error;
  }

  const liveBroker = broker;
  const channelNames = new Set(channels.map((running) => running.channel.name));
  const backend = createLocalBackend(liveBroker, {
    defaultTarget: config.defaultTarget,
    channels: channelNames,
  });
  // Without a token only the gateway's own names are served (with a token, the token guards every call).
  const ownNames = config.token ? undefined : ownHostNames(config);
  let port = config.port;
  const mcp = createMcpHttpHandler({
    backend,
    ...(config.defaultTarget ? { defaultTarget: config.defaultTarget } : {}),
    transportSecurity: () => (ownNames ? mcpTransportSecurity(ownNames, port) : undefined),
  });
  const http = createHttpServer({
    broker: liveBroker,
    token: config.token,
    defaultTarget: config.defaultTarget,
    channels: channelNames,
    logger,
    mcp,
    textInbound: channelNames.has("text"),
    webhooks: webhooksOf(channels),
    ...(ownNames ? { allowedHosts: ownNames } : {}),
  });
  await new Promise<void>((resolve, reject) => {
    http.server.once("error", reject);
    http.server.listen(config.port, config.host, () => {
      http.server.off("error", reject);
      resolve();
    });
  });
  const address = http.server.address() as AddressInfo;
  port = address.port;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;

  const clock = options.clock;
  const prune = async (): Promise<number> => {
    if (config.retentionDays === 0) return 0;
    const now = clock ? clock.now() : Date.now();
    const deleted = await store.prune(now - config.retentionDays * DAY_MS);
    if (deleted > 0) logger.info({ deleted, retentionDays: config.retentionDays }, "pruned ended questions");
    return deleted;
  };
  const runPrune = () => {
    prune().catch((err: unknown) => logger.warn({ err }, "pruning ended questions failed"));
  };
  runPrune();
  const pruneTimer = setInterval(runPrune, PRUNE_INTERVAL_MS);
  pruneTimer.unref();

  let closing: Promise<void> | undefined;
  return {
    config,
    url,
    broker: liveBroker,
    backend,
    channels,
    http,
    logger,
    prune,
    close() {
      closing ??= (async () => {
        clearInterval(pruneTimer);
        await http.close();
        for (const running of channels)
          await running.stop().catch((err: unknown) => logger.warn({ err }, "channel stop failed"));
        await liveBroker.close();
        await store.close();
      })();
      return closing;
    },
  };
}

/** SQLite (one instance, the default) or Redis (several instances sharing questions and answers). */
async function openStore(config: GatewayConfig, logger: Logger): Promise<QuestionStore> {
  if (config.redisUrl === undefined) return createSqliteStore({ path: config.dbPath });
  const store = createRedisStore({ url: config.redisUrl, logger: brokerLogger(logger) });
  try {
    await store.ready;
  } catch (error) {
    await store.close().catch(() => undefined);
    throw error;
  }
  return store;
}

/** The names a token-less gateway answers to: loopback, its bind address, and ASK_USER_ALLOWED_HOSTS. */
function ownHostNames(config: GatewayConfig): ReadonlySet<string> {
  const names = new Set(["127.0.0.1", "localhost", "[::1]", ...config.allowedHosts]);
  names.add(config.host.includes(":") && !config.host.startsWith("[") ? `[${config.host}]` : config.host);
  return names;
}

/**
 * The MCP SDK transport's exact Host values and Origins for a token-less gateway on `port`: its own
 * names with and without the port (a reverse proxy named in ASK_USER_ALLOWED_HOSTS may drop it).
 */
function mcpTransportSecurity(names: ReadonlySet<string>, port: number): McpTransportSecurity {
  const hosts = [...names].flatMap((name) => [name, `${name}:${port}`]);
  const origins = hosts.flatMap((host) => [`http://${host}`, `https://${host}`]);
  return { allowedHosts: hosts, allowedOrigins: origins };
}

/**
 * The platforms' inbound webhooks, mounted at `/channels/<name>/…`: a running channel that receives
 * over HTTP offers a `webhook` handler (`(Request) => Promise<Response>`) instead of its own port.
 */
function webhooksOf(channels: RunningChannel[]): Map<string, WebhookHandler> {
  const webhooks = new Map<string, WebhookHandler>();
  for (const { channel, webhook } of channels) if (webhook) webhooks.set(channel.name, webhook);
  return webhooks;
}
