/**
 * The plugin's Bolt app from a `SlackConfig`: Socket Mode with an app token, else HTTP mode (`receiver.ts`);
 * the WebClients retry only a 429; Bolt's warnings and errors in our log.
 */
import { type AskUserLogger, InvalidChannelConfigError } from "@ask-user/core/channel";
import { type AnyMiddlewareArgs, App, type Logger, LogLevel, type Middleware, webApi } from "@slack/bolt";
import { NO_MODE_PROBLEM, type SlackConfig } from "../config.ts";
import { SLACK_RETRY_POLICY, toChannelError } from "../errors.ts";
import { createWebhookReceiver } from "./receiver.ts";

/** Bolt's Socket Mode warning when {@link acknowledgeTheRest} comes after a listener's own ack. */
const SECOND_ACK = /^ack\(\) has already been called/;

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

/** The plugin app's last middleware: a request nobody acked is acked, so the person sees no error. */
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

/** Checks the bot token (a refusal throws `ChannelError`) and builds the app, not started. */
export async function createBoltApp(config: SlackConfig, logger: AskUserLogger) {
  const clientOptions = {
    retryConfig: { ...SLACK_RETRY_POLICY },
    ...(config.apiUrl ? { slackApiUrl: config.apiUrl } : {}),
  };
  const probe = new webApi.WebClient(config.botToken, { ...clientOptions, logLevel: LogLevel.ERROR });
  const auth = await probe.auth.test().catch((error: unknown) => {
    throw toChannelError(error, "auth.test");
  });
  const { appToken, signingSecret } = config;
  if (!appToken && !signingSecret) throw new InvalidChannelConfigError("slack", [NO_MODE_PROBLEM]);
  // HTTP mode's receiver logs with the app's logger.
  const receiver = appToken || !signingSecret ? undefined : createWebhookReceiver({ signingSecret });
  const app = new App({
    token: config.botToken,
    ...(auth.bot_id ? { botId: auth.bot_id } : {}),
    ...(auth.user_id ? { botUserId: auth.user_id } : {}),
    ...(receiver ? { receiver } : { appToken: appToken ?? "", socketMode: true }),
    clientOptions,
    // Socket Mode's own WebClient (apps.connections.open) with the same policy, not its default of 100
    // tries over about 30 minutes: a start while Slack is unreachable fails, and the host tries again.
    // Bolt 5.1 passes `clientOptions` there by itself; said here so that it stays so.
    installerOptions: { clientOptions: { ...clientOptions } },
    logger: boltLogger(logger),
  });
  return { app, receiver, botName: auth.user ?? "bot" };
}
