/**
 * A Bolt app from a `SlackConfig`, as the plugin runs it: the bot token checked with `auth.test` first,
 * Socket Mode with an app token, else HTTP mode through a receiver that opens no port (`receiver.ts`);
 * rate-limited calls retried after Slack's `Retry-After`, bounded by `SLACK_RETRY_POLICY`, and nothing
 * else retried by the WebClient (a post whose connection failed is not sent twice) — Socket Mode's own
 * WebClient included, so a start while Slack is unreachable fails in bounded time; Bolt's own log lines
 * in ours.
 */
import { type AskUserLogger, InvalidChannelConfigError } from "@ask-user/core/channel";
import { type AnyMiddlewareArgs, App, type Logger, LogLevel, type Middleware, webApi } from "@slack/bolt";
import { NO_MODE_PROBLEM, type SlackConfig } from "../config.ts";
import { SLACK_RETRY_POLICY, toChannelError } from "../errors.ts";
import { createWebhookReceiver, type WebhookReceiver } from "./receiver.ts";

/** Bolt's Socket Mode warning when {@link acknowledgeTheRest} comes after a listener's own ack. */
const SECOND_ACK = /^ack\(\) has already been called/;

/** Bolt's logger interface over ours: warnings and errors only. */
function boltLogger(logger: AskUserLogger): Logger {
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
 * The plugin app's last middleware: an interactive request that nobody answered (a button or modal of
 * another app's message, an old message of a removed listener) is acknowledged once the listeners ran,
 * so that Bolt does not answer 404 and the person sees no error. A listener's own ack comes first, and
 * the late one is then dropped.
 */
export function acknowledgeTheRest(): Middleware<AnyMiddlewareArgs> {
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

/** A Bolt app built from the config, not started. */
export interface BoltApp {
  app: App;
  /** HTTP mode: the receiver whose `handle` serves Slack's requests. */
  receiver?: WebhookReceiver;
  /** The bot's user name from `auth.test` (for the banner). */
  botName: string;
}

/**
 * Checks the bot token (`auth.test`; a refusal throws `ChannelError`) and builds the app: Socket Mode
 * with `appToken`, else HTTP mode with `signingSecret`.
 *
 * @example
 * const { app, receiver } = await createBoltApp(readSlackConfig(process.env), logger);
 */
export async function createBoltApp(config: SlackConfig, logger: AskUserLogger): Promise<BoltApp> {
  const clientOptions = {
    retryConfig: { ...SLACK_RETRY_POLICY },
    ...(config.apiUrl ? { slackApiUrl: config.apiUrl } : {}),
  };
  let auth: webApi.AuthTestResponse;
  try {
    auth = await new webApi.WebClient(config.botToken, {
      ...clientOptions,
      logLevel: LogLevel.ERROR,
    }).auth.test();
  } catch (error) {
    throw toChannelError(error, "auth.test");
  }
  const bolt = boltLogger(logger);
  let receiver: WebhookReceiver | undefined;
  if (config.appToken === undefined) {
    if (!config.signingSecret) throw new InvalidChannelConfigError("slack", [NO_MODE_PROBLEM]);
    receiver = createWebhookReceiver({ signingSecret: config.signingSecret }); // logs with the app's logger
  }
  const app = new App({
    token: config.botToken,
    ...(auth.bot_id ? { botId: auth.bot_id } : {}),
    ...(auth.user_id ? { botUserId: auth.user_id } : {}),
    ...(receiver ? { receiver } : { appToken: config.appToken ?? "", socketMode: true }),
    clientOptions,
    // Socket Mode's own WebClient (apps.connections.open) with the same policy, not its default of 100
    // tries over about 30 minutes: a start while Slack is unreachable fails, and the host tries again.
    // Bolt 5.1 passes `clientOptions` there by itself; said here so that it stays so.
    installerOptions: { clientOptions: { ...clientOptions } },
    logger: bolt,
  });
  return { app, ...(receiver ? { receiver } : {}), botName: auth.user ?? "bot" };
}
