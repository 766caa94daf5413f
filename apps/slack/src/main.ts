/**
 * Environment → Bolt app → running channel (`runSlack`, used by the gateway), and the standalone
 * runner: `tsx src/main.ts --target <conversation> <file.json|->` asks one question through Slack
 * alone and prints the result JSON (exit 0 answered, 3 no answer, 2 usage, 1 failure, 130 Ctrl-C).
 */
import { readFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import {
  type AskUserBroker,
  type AskUserLogger,
  type Channel,
  consoleLogger,
  createAskUser,
  InvalidAskUserInputError,
} from "@ask-user/core";
import { createSqliteStore } from "@ask-user/sqlite";
import { App, type Logger, LogLevel, webApi } from "@slack/bolt";
import { createSlackChannel } from "./channel.ts";
import { SLACK_RETRY_POLICY } from "./limits.ts";

/** A pino-compatible logger (details first); `info` is optional. */
export type SlackLogger = AskUserLogger & { info?(details: Record<string, unknown>, message: string): void };

/** The Slack settings read from the environment. */
export interface SlackConfig {
  botToken: string;
  /** Socket Mode when set (wins over the signing secret). */
  appToken?: string;
  /** HTTP mode (`/slack/events`) when there is no app token. */
  signingSecret?: string;
  apiUrl?: string;
  port: number;
  host: string;
}

/**
 * Reads `SLACK_BOT_TOKEN` (required), `SLACK_APP_TOKEN` (Socket Mode) or `SLACK_SIGNING_SECRET` (HTTP
 * mode), `SLACK_PORT` (HTTP, default 3000), `SLACK_HOST` (HTTP bind address, default `127.0.0.1`)
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
      "Set SLACK_APP_TOKEN (xapp-…, Socket Mode: no public URL needed) or SLACK_SIGNING_SECRET (HTTP mode on /slack/events).",
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

/** Bolt's logger interface over ours: warnings and errors only. */
function boltLogger(logger: SlackLogger): Logger {
  let level = LogLevel.WARN;
  const text = (parts: unknown[]) => parts.map((p) => (p instanceof Error ? p.message : String(p))).join(" ");
  return {
    debug: () => undefined,
    info: () => undefined,
    warn: (...parts) => logger.warn({ channel: "slack", source: "bolt" }, text(parts)),
    error: (...parts) => logger.error({ channel: "slack", source: "bolt" }, text(parts)),
    setLevel: (next) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => undefined,
  };
}

/** Options of {@link runSlack}. */
export interface RunSlackOptions {
  env: Record<string, string | undefined>;
  broker: () => AskUserBroker;
  logger?: SlackLogger;
}

/** A started Slack channel. */
export interface RunningSlack {
  channel: Channel;
  /** One banner line, e.g. `slack (@ask_user_bot, Socket Mode)`. Never contains tokens. */
  describe: string;
  /** The Bolt app, for adding your own listeners. */
  app: App;
  stop(): Promise<void>;
}

/**
 * Builds a Bolt app from the environment (see {@link readSlackEnv}), mounts the channel and starts it:
 * Socket Mode with `SLACK_APP_TOKEN`, else HTTP on `SLACK_PORT`. Checks the bot token with `auth.test`
 * first. Rate-limited calls are retried after Slack's `Retry-After`, bounded by `SLACK_RETRY_POLICY`.
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
  const socketMode = config.appToken !== undefined;
  const app = new App({
    token: config.botToken,
    ...(auth.bot_id ? { botId: auth.bot_id } : {}),
    ...(auth.user_id ? { botUserId: auth.user_id } : {}),
    ...(config.appToken
      ? { appToken: config.appToken, socketMode: true }
      : { signingSecret: config.signingSecret ?? "" }),
    clientOptions,
    logger: boltLogger(logger),
  });
  const slack = createSlackChannel({ app, broker: options.broker, logger });
  let mode = "Socket Mode";
  if (socketMode) {
    await app.start();
  } else {
    const server = (await app.start(
      config.host ? { port: config.port, host: config.host } : config.port,
    )) as {
      address(): unknown;
    };
    const address = server.address() as { port?: number } | null;
    mode = `HTTP on :${address?.port ?? config.port}/slack/events`;
  }
  const describe = `slack (@${auth.user ?? "bot"}, ${mode})`;
  options.logger?.info?.({ channel: "slack" }, `${describe} ready`);
  return { channel: slack.channel, describe, app, stop: () => app.stop().then(() => undefined) };
}

/** Where the standalone runner writes and what stops it (tests pass their own). */
export interface MainIo {
  out(text: string): void;
  err(text: string): void;
  /** Reads stdin (for the file `-`). */
  stdin(): Promise<string>;
  /** Aborting cancels the question (Ctrl-C). */
  signal?: AbortSignal;
}

const USAGE = "usage: tsx src/main.ts --target <conversation> [--creator <user id>] <file.json|->";

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

const defaultIo: MainIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  stdin: readStdin,
};

function parseArgs(argv: string[]): { target: string; creator?: string; file: string } | undefined {
  let target: string | undefined;
  let creator: string | undefined;
  const files: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--target") target = argv[++i];
    else if (arg === "--creator") creator = argv[++i];
    else if (arg !== undefined) files.push(arg);
  }
  const file = files[0];
  if (!target || file === undefined || files.length !== 1) return undefined;
  return creator ? { target, creator, file } : { target, file };
}

/**
 * The standalone runner: asks the question in the file (or stdin for `-`) in `--target` through Slack
 * alone, over the SQLite store at `ASK_USER_DB` (default `.ask-user/slack.db`), prints the result JSON.
 * Returns the exit code: 0 answered, 3 no answer, 2 bad usage or input, 1 failure, 130 when `io.signal`
 * aborted (Ctrl-C cancels the question).
 *
 * @example
 * // SLACK_BOT_TOKEN=xoxb-… SLACK_APP_TOKEN=xapp-… tsx src/main.ts --target C0123ABCD examples/deploy-target.json
 * process.exitCode = await main(process.argv.slice(2), process.env);
 */
export async function main(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
  io: MainIo = defaultIo,
): Promise<number> {
  const args = parseArgs(argv);
  if (!args) {
    io.err(`${USAGE}\n`);
    return 2;
  }
  let input: unknown;
  try {
    input = JSON.parse(args.file === "-" ? await io.stdin() : await readFile(args.file, "utf8"));
  } catch (error) {
    io.err(`Cannot read ${args.file === "-" ? "stdin" : args.file}: ${(error as Error).message}\n`);
    return 2;
  }
  const store = createSqliteStore({ path: env.ASK_USER_DB?.trim() || ".ask-user/slack.db" });
  let broker: AskUserBroker | undefined;
  let running: RunningSlack | undefined;
  try {
    running = await runSlack({
      env,
      broker: () => {
        if (!broker) throw new Error("The broker is not ready yet.");
        return broker;
      },
    });
    io.err(`${running.describe} is waiting for an answer\n`);
    broker = createAskUser({
      store,
      channels: [running.channel],
      ...(env.ASK_USER_LOCALE ? { locale: env.ASK_USER_LOCALE } : {}),
    });
    const result = await broker.ask(input, {
      target: { channel: "slack", conversation: args.target },
      ...(args.creator ? { creator: { channel: "slack", userId: args.creator } } : {}),
      ...(io.signal ? { signal: io.signal } : {}),
    });
    io.out(`${JSON.stringify(result, null, 2)}\n`);
    if (io.signal?.aborted) return 130;
    return result.status === "answered" ? 0 : 3;
  } catch (error) {
    io.err(
      `${error instanceof InvalidAskUserInputError ? error.message : `ask-user slack: ${(error as Error).message}`}\n`,
    );
    return error instanceof InvalidAskUserInputError ? 2 : 1;
  } finally {
    await broker?.close();
    await running?.stop();
    await store.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const controller = new AbortController();
  process.once("SIGINT", () => controller.abort());
  main(process.argv.slice(2), process.env, { ...defaultIo, signal: controller.signal }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
