import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import {
  type AskUserBroker,
  type ChannelPlugin,
  type Clock,
  createAskUser,
  type QuestionStore,
} from "@ask-user/core";
import type { Logger } from "pino";
import type { QuestionBackend } from "./backend.ts";
import {
  type ChannelStatus,
  DELIVER_WAIT_MS,
  type SupervisedChannel,
  superviseChannel,
} from "./channel-supervisor.ts";
import {
  loadChannelPlugins,
  repairAfterChannels,
  settledAll,
  stopChannels,
  turnOnHints,
  warnAboutListen,
} from "./channels.ts";
import { type GatewayConfig, readGatewayConfig } from "./config.ts";
import { mcpTransportSecurity, ownHostNames } from "./hosts.ts";
import { createHttpServer, type HttpServer, type WebhookHandler } from "./http/server.ts";
import { createLocalBackend } from "./local-backend.ts";
import { createLogger } from "./log.ts";
import { createMcpHttpHandler } from "./mcp/http.ts";
import { createGatewayMetrics, type GatewayMetrics } from "./metrics.ts";
import { createPushService, type PushService, pushFolderOf } from "./push/service.ts";
import { DAY_MS, openGatewayStore, startPruning } from "./store-open.ts";

/** How long `startGateway` waits (serving already) for the channels' first connection attempts. */
const CHANNEL_WAIT_MS = 10_000;

/** Options of `startGateway`; everything else comes from the environment. */
export interface StartOptions {
  env?: Record<string, string | undefined>;
  logger?: Logger;
  clock?: Clock;
  /** The channels to consider (default: the plugins of `CHANNEL_MODULES`). */
  plugins?: ChannelPlugin[];
  /**
   * A store to use instead of the one the environment names (`ASK_USER_DB`, `ASK_USER_REDIS_URL`):
   * an embedding application's own, or `createMemoryStore()` for a gateway that keeps nothing. The
   * caller owns it: `close()` leaves it open.
   */
  store?: QuestionStore;
  /**
   * The HTTP fast lane for the agent's create, wait and answer (default true); false serves them through the
   * app like every other request (the bench's comparison).
   */
  fastLane?: boolean;
  /**
   * How long `startGateway`, serving already, waits for each channel's first connection attempt before it
   * resolves (default 10 s; 0: not at all). A channel that did not connect goes on trying in the
   * background either way; `channelStatus()` says where each one is.
   */
  channelWaitMs?: number;
}

/** A running gateway. */
export interface RunningGateway {
  config: GatewayConfig;
  /** Base URL of the HTTP API, e.g. `http://127.0.0.1:7310`. */
  url: string;
  broker: AskUserBroker;
  backend: QuestionBackend;
  /** Every channel the gateway knows, running or not (the banner says how to turn the others on). */
  plugins: ChannelPlugin[];
  /**
   * The enabled channels, in the order of `plugins`, each connecting in the background: `status()` says
   * whether it is connected, `instance` is the plugin's instance once created.
   */
  channels: SupervisedChannel[];
  /** Each enabled channel's state by name (what `/healthz` shows under `channels`). */
  channelStatus(): Record<string, ChannelStatus>;
  http: HttpServer;
  logger: Logger;
  /** Deletes ended questions older than the retention period now; how many (runs hourly by itself). */
  prune(): Promise<number>;
  /** Drains: stops intake, ends streams, keeps pending questions in the store, closes the database. */
  close(): Promise<void>;
}

/**
 * Starts the gateway: the store (SQLite, or Redis shared by several instances), the broker with every
 * channel whose variables are set (recovering pending questions), and the HTTP API with SSE, MCP and the
 * channels' webhooks. It serves at once, whatever the platforms do: each channel is created and
 * initialised in the background, retried with backoff while it fails (see `channel-supervisor.ts`);
 * `startGateway` waits for their first attempts at most `channelWaitMs`.
 *
 * @example
 * const gateway = await startGateway({ env: process.env });
 * console.log(`HTTP API at ${gateway.url}/v1`);
 */
export async function startGateway(options: StartOptions = {}): Promise<RunningGateway> {
  const env = options.env ?? process.env;
  const plugins = options.plugins ?? (await loadChannelPlugins());
  const { config, channels: enabled } = readGatewayConfig(env, plugins);
  const logger = options.logger ?? createLogger(config.logLevel);

  // One gateway per SQLite file (several instances share Redis instead): refused before it is opened.
  const opened = await openGatewayStore(config, logger, options.store);
  const { store } = opened;
  const closeStore = () => opened.close();
  // The id derived from the SQLite file is not this gateway's when it runs on a store of the caller's.
  const instanceId =
    (options.store && config.instanceIdDerived ? undefined : config.instanceId) ?? randomUUID();
  // Each channel's webhook is mounted at once (503 until its instance exists); replies through
  // /v1/channels/<name>/inbound once an instance says it takes them that way.
  const webhooks = new Map<string, WebhookHandler>();
  const replyChannels = new Set<string>();
  const channels = enabled.map(({ plugin, config: channelConfig }) => {
    const channelLogger = logger.child({ channel: plugin.name });
    const supervised: SupervisedChannel = superviseChannel({
      plugin,
      config: channelConfig,
      context: { logger: channelLogger, coordination: store, instanceId },
      logger,
      onCreated(instance) {
        warnAboutListen(instance, logger);
        if (!instance.handleWebhook) webhooks.delete(plugin.name);
        if (instance.capabilities.ingress === "webhook" && !instance.handleWebhook)
          replyChannels.add(plugin.name);
      },
    });
    webhooks.set(plugin.name, (request) => supervised.handleWebhook(request));
    return supervised;
  });
  let broker: AskUserBroker | undefined;
  let push: PushService;
  // When starting fails part way, nothing it opened may stay open behind the error.
  const abandon = async () => {
    await stopChannels(channels);
    await broker?.close().catch(() => undefined);
    await closeStore().catch(() => undefined);
  };
  try {
    broker = createAskUser({
      // Repairs at start wait for the channels' first attempts: a stored prompt goes out with the
      // channel's real controls, not the placeholder's.
      store: repairAfterChannels(store, () => settledAll(channels, DELIVER_WAIT_MS)),
      channels: channels.map((supervised) => supervised.channel),
      locale: config.locale,
      answerers: config.answerers,
      logger,
      instanceId,
      claimMs: config.claimSeconds * 1000,
      ...(options.clock ? { clock: options.clock } : {}),
    });
    // Web Push of new questions to the panel's subscribers (keys and subscriptions beside the SQLite
    // file, or in Redis shared by every instance).
    const folder = pushFolderOf(config, options.store !== undefined);
    push = await createPushService({
      broker,
      folder,
      shared: opened.push,
      subject: env.ASK_USER_PUSH_SUBJECT,
      logger,
    });
  } catch (error) {
    await abandon();
    throw error;
  }

  const liveBroker = broker;
  const channelNames = new Set(channels.map((instance) => instance.channel.name));
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
    // A task lives as long as its question is kept.
    ...(config.retentionDays > 0 ? { taskRetentionMs: config.retentionDays * DAY_MS } : {}),
    ...(config.mcpMemoryMb ? { memoryBudgetBytes: config.mcpMemoryMb * 1024 * 1024 } : {}),
    transportSecurity: () => (ownNames ? mcpTransportSecurity(ownNames, port) : undefined),
  });
  // Read at scrape time only: `http` exists by then.
  const metrics: GatewayMetrics = createGatewayMetrics({
    broker: liveBroker,
    sseStreams: () => http.events.size,
    mcpSessions: () => mcp.sessions,
  });
  const http = createHttpServer({
    broker: liveBroker,
    token: config.token,
    defaultTarget: config.defaultTarget,
    channels: channelNames,
    logger,
    mcp,
    replyChannels,
    health: () => ({ pid: process.pid, channels: channelStatus(channels) }),
    metrics: () => metrics.scrape(),
    push,
    turnOn: turnOnHints(plugins, channelNames),
    webhooks,
    ...(ownNames ? { allowedHosts: ownNames } : {}),
    ...(options.fastLane === undefined ? {} : { fastLane: options.fastLane }),
  });
  try {
    await new Promise<void>((resolve, reject) => {
      http.server.once("error", reject);
      http.server.listen(config.port, config.host, () => {
        http.server.off("error", reject);
        resolve();
      });
    });
  } catch (error) {
    metrics.close();
    await abandon(); // the port is taken, or not ours
    throw error;
  }
  // Serving: the channels connect in the background; wait a little for their first attempts, and for
  // the recovery of pending questions.
  for (const supervised of channels) await supervised.start(liveBroker);
  try {
    await Promise.all([settledAll(channels, options.channelWaitMs ?? CHANNEL_WAIT_MS), liveBroker.ready]);
  } catch (error) {
    metrics.close();
    await http.close();
    await abandon();
    throw error;
  }
  const address = http.server.address() as AddressInfo;
  port = address.port;
  opened.setPort(port);
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;

  const clock = options.clock;
  const pruning = startPruning(store, config, logger, () => (clock ? clock.now() : Date.now()));

  let closing: Promise<void> | undefined;
  return {
    config,
    url,
    broker: liveBroker,
    backend,
    plugins,
    channels,
    channelStatus: () => channelStatus(channels),
    http,
    logger,
    prune: pruning.prune,
    close() {
      closing ??= (async () => {
        pruning.stop();
        await http.close();
        metrics.close();
        await push.close();
        await stopChannels(channels, (err, instance) =>
          logger.warn({ err, channel: instance.plugin.name }, "channel stop failed"),
        );
        await liveBroker.close();
        await closeStore();
      })();
      return closing;
    },
  };
}

/** Each channel's state by name. */
function channelStatus(channels: readonly SupervisedChannel[]): Record<string, ChannelStatus> {
  return Object.fromEntries(channels.map((supervised) => [supervised.plugin.name, supervised.status()]));
}
