/** Environment → Bolt app → running channel: `runSlack`, which the gateway and `src/main.ts` start. */
import {
  type AskUserBroker,
  type AskUserLogger,
  type Channel,
  type Coordination,
  consoleLogger,
} from "@ask-user/core";
import { type AnyMiddlewareArgs, App, type Logger, LogLevel, type Middleware, webApi } from "@slack/bolt";
import { createSlackChannel } from "./channel.ts";
import { type HandlerServer, serveHandler } from "./http-server.ts";
import { EVENTS_PATH, LEGACY_EVENTS_PATH, SLACK_RETRY_POLICY } from "./limits.ts";
import { createWebhookReceiver, type WebhookHandler } from "./receiver.ts";

/** A pino-compatible logger (details first); `info` is optional. */
export type SlackLogger = AskUserLogger & { info?(details: Record<string, unknown>, message: string): void };

/** The Slack settings read from the environment. */
export interface SlackConfig {
  botToken: string;
  /** Socket Mode when set (wins over the signing secret). */
  appToken?: string;
  /** HTTP mode (Request URL `…/channels/slack/events`) when there is no app token. */
  signingSecret?: string;
  apiUrl?: string;
  /** The standalone runner's own port in HTTP mode (`listen`); inside the gateway, unused. */
  port: number;
  host: string;
}

/**
 * Reads `SLACK_BOT_TOKEN` (required), `SLACK_APP_TOKEN` (Socket Mode) or `SLACK_SIGNING_SECRET` (HTTP
 * mode), `SLACK_PORT` (HTTP alone, default 3000), `SLACK_HOST` (its bind address, default `127.0.0.1`)
 * and `SLACK_API_URL` (Web API base, default Slack's). Throws an `Error` saying what is missing.
 */
export function readSlackEnv(env: Record<string, string | undefined>): SlackConfig {
  const value = (name: string) => env[name]?.trim() || undefined;
  const botToken = value("SLACK_BOT_TOKEN");
  if (!botToken) throw new Error("SLACK_BOT_TOKEN is required (the xoxb-… bot token).");
  const appToken = value("SLACK_APP_TOKEN");
  const signingSecret = value("SLACK_SIGNING_SECRET");
  if (!appToken && !signingSecret) {
    throw new Error(
      `Set SLACK_APP_TOKEN (xapp-…, Socket Mode: no public URL needed) or SLACK_SIGNING_SECRET (HTTP mode: Request URL …${EVENTS_PATH}).`,
    );
  }
  const port = Number(value("SLACK_PORT") ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error("SLACK_PORT must be a port number.");
  const config: SlackConfig = { botToken, port, host: value("SLACK_HOST") ?? "127.0.0.1" };
  if (appToken) config.appToken = appToken;
  else if (signingSecret) config.signingSecret = signingSecret;
  const apiUrl = value("SLACK_API_URL");
  if (apiUrl) config.apiUrl = apiUrl.endsWith("/") ? apiUrl : `${apiUrl}/`;
  return config;
}

/** Bolt's Socket Mode warning when {@link acknowledgeTheRest} comes after a listener's own ack. */
const SECOND_ACK = /^ack\(\) has already been called/;

/** Bolt's logger interface over ours: warnings and errors only. */
function boltLogger(logger: SlackLogger): Logger {
  let level = LogLevel.WARN;
  const text = (parts: unknown[]) => parts.map((p) => (p instanceof Error ? p.message : String(p))).join(" ");
  return {
    debug: () => undefined,
    info: () => undefined,
    warn: (...parts) => {
      const message = text(parts);
      if (!SECOND_ACK.test(message)) logger.warn({ channel: "slack", source: "bolt" }, message);
    },
    error: (...parts) => logger.error({ channel: "slack", source: "bolt" }, text(parts)),
    setLevel: (next) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => undefined,
  };
}

/**
 * The standalone runner's last middleware: an interactive request that nobody answered (a button or
 * modal of another app's message, an old message of a removed listener) is acknowledged once the
 * listeners ran, so that Bolt does not answer 404 and the person sees no error. Requests the channel
 * handles never get here; a listener's own ack comes first, and the late one is then dropped.
 */
function acknowledgeTheRest(): Middleware<AnyMiddlewareArgs> {
  return async (args) => {
    await args.next();
    if (!("ack" in args) || typeof args.ack !== "function") return; // events are acked by Bolt itself
    try {
      await (args.ack as () => Promise<void>)();
    } catch {
      // HTTP mode: a listener acknowledged it already (ReceiverMultipleAckError).
    }
  };
}

/** Options of {@link runSlack}. */
export interface RunSlackOptions {
  env: Record<string, string | undefined>;
  broker: () => AskUserBroker;
  logger?: SlackLogger;
  /**
   * Shared with the other instances on the same store (the gateway passes the store): each event and
   * interaction is handled once across them. Without it, this process dedupes on its own.
   */
  coordination?: Coordination;
  /**
   * This instance's name (in the ready line). Slack needs no lease: every instance opens its own Socket
   * Mode connection or serves HTTP, and Slack hands each request to one of them.
   */
  instanceId?: string;
  /**
   * HTTP mode: also open a port of its own (`SLACK_HOST`:`SLACK_PORT`) serving `webhook` at
   * `/channels/slack/events` (and Bolt's old `/slack/events`) — what the standalone runner does.
   * Default false: no port is opened and the host mounts `webhook` (the gateway, on its one port).
   */
  listen?: boolean;
}

/** A started Slack channel. */
export interface RunningSlack {
  channel: Channel;
  /** One banner line, e.g. `slack (@ask_user_bot, Socket Mode)`. Never contains tokens. */
  describe: string;
  /** The Bolt app, for adding your own listeners. */
  app: App;
  /**
   * HTTP mode: the handler of Slack's Events API and interactivity requests (signature and timestamp
   * checked). Mount it at the Request URL — the gateway serves it at `/channels/slack/events`.
   */
  webhook?: WebhookHandler;
  stop(): Promise<void>;
}

/**
 * Builds a Bolt app from the environment (see {@link readSlackEnv}), mounts the channel and starts it:
 * Socket Mode with `SLACK_APP_TOKEN`, else HTTP mode — a receiver that opens no port, whose handler is
 * returned as `webhook` for the host to mount (the gateway: `/channels/slack/events` on its port), or
 * served on `SLACK_PORT` with `listen`. Checks the bot token with `auth.test` first. Rate-limited calls are retried after Slack's `Retry-After`, bounded by `SLACK_RETRY_POLICY`.
 * Interactive requests that no listener acknowledged are acknowledged after the listeners ran (this
 * app is ours alone; a channel mounted on your own app leaves that to you).
 *
 * @example
 * ```ts
 * let askUser: AskUserBroker;
 * const slack = await runSlack({ env: process.env, broker: () => askUser });
 * askUser = createAskUser({ store, channels: [slack.channel] });
 * console.log(slack.describe); // slack (@ask_user_bot, Socket Mode)
 * ```
 */
export async function runSlack(options: RunSlackOptions): Promise<RunningSlack> {
  const config = readSlackEnv(options.env);
  const logger = options.logger ?? consoleLogger;
  const clientOptions = {
    retryConfig: { ...SLACK_RETRY_POLICY },
    ...(config.apiUrl ? { slackApiUrl: config.apiUrl } : {}),
  };
  const auth = await new webApi.WebClient(config.botToken, {
    ...clientOptions,
    logLevel: LogLevel.ERROR,
  }).auth.test();
  const bolt = boltLogger(logger);
  const receiver =
    config.appToken === undefined
      ? createWebhookReceiver({ signingSecret: config.signingSecret ?? "" }) // logs with the app's logger
      : undefined;
  const app = new App({
    token: config.botToken,
    ...(auth.bot_id ? { botId: auth.bot_id } : {}),
    ...(auth.user_id ? { botUserId: auth.user_id } : {}),
    ...(receiver ? { receiver } : { appToken: config.appToken ?? "", socketMode: true }),
    clientOptions,
    logger: bolt,
  });
  const slack = createSlackChannel({
    app,
    broker: options.broker,
    logger,
    ...(options.coordination ? { coordination: options.coordination } : {}),
  });
  app.use(acknowledgeTheRest());
  await app.start(); // Socket Mode connects; the HTTP receiver opens nothing
  let mode = "Socket Mode";
  let server: HandlerServer | undefined;
  if (receiver) {
    mode = `HTTP at ${EVENTS_PATH}`;
    if (options.listen) {
      try {
        server = await serveHandler(receiver.handle, {
          paths: [EVENTS_PATH, LEGACY_EVENTS_PATH],
          host: config.host,
          port: config.port,
          logger,
          name: "slack",
        });
      } catch (error) {
        await app.stop();
        throw error;
      }
      mode = `HTTP on :${server.port}${EVENTS_PATH}`;
    } else {
      const ignored = ["SLACK_PORT", "SLACK_HOST"].filter((key) => options.env[key]?.trim());
      if (ignored.length > 0)
        logger.warn(
          { channel: "slack", ignored },
          `${ignored.join(" and ")} apply to the standalone runner only: here Slack's requests come to the host's port at ${EVENTS_PATH}`,
        );
    }
  }
  const describe = `slack (@${auth.user ?? "bot"}, ${mode})`;
  const instance = options.instanceId === undefined ? {} : { instance: options.instanceId };
  options.logger?.info?.({ channel: "slack", ...instance }, `${describe} ready`);
  const stop = async () => {
    await server?.close();
    await app.stop();
  };
  return { channel: slack.channel, describe, app, ...(receiver ? { webhook: receiver.handle } : {}), stop };
}
