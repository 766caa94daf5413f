import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "pino";
import type { SupervisedChannel } from "./channel-supervisor.ts";
import { turnedOnBy } from "./channels.ts";
import { VIA_PNPM_ENV } from "./cli/invocation.ts";
import {
  databaseMessage,
  findFreePort,
  findPortHolder,
  isDatabaseOpenError,
  portInUseMessage,
  prepareDatabaseFolder,
  sqlitePath,
} from "./cli/start-errors.ts";
import { ConfigError, LOG_FORMATS, LOG_LEVELS } from "./config.ts";
import { type RunningGateway, startGateway } from "./gateway.ts";
import { webDistDir } from "./http/static.ts";
import { DEFAULT_GATEWAY_URL } from "./http-client.ts";
import { createLogger, logActivity, prettyLog } from "./log.ts";
import { StoreLockedError } from "./store-lock.ts";

/** Where `ask-user start` writes. */
export interface StartIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  env: Record<string, string | undefined>;
  /**
   * Ends the process when something (a platform SDK reconnecting forever) would keep it alive after the
   * gateway closed. Default `process.exit`.
   */
  exit?: (code: number) => void;
}

/** How long a stop may take before the process exits anyway (SIGTERM → exit within 5 s). */
const CLOSE_BUDGET_MS = 3_500;
const EXIT_GRACE_MS = 1_000;
/**
 * How long the banner waits for the channels' first connection attempts (the API serves meanwhile): a
 * channel still connecting then shows as `connecting…`, and its log line comes when it connects.
 */
const BANNER_CHANNEL_WAIT_MS = 3_000;

/**
 * SPEC §5: without a creator, nobody may answer by chat in a group — which is what MCP, CLI and HTTP
 * callers get by default. Say so when the default target is a group and only creators may answer.
 */
function groupWarning(gateway: RunningGateway): string[] {
  const { defaultTarget, answerers } = gateway.config;
  if (!defaultTarget || answerers !== "creator") return [];
  // Only a channel that exists knows whether the conversation is one-to-one.
  const channel = gateway.channels.find(
    (supervised) => supervised.channel.name === defaultTarget.channel,
  )?.instance;
  if (!channel || channel.isDirect?.(defaultTarget.conversation) === true) return [];
  return [
    `  ! ${defaultTarget.channel}:${defaultTarget.conversation} is a shared chat: questions without a creator`,
    "    can't be answered there by chat. Set ASK_USER_ANSWERERS=conversation to let its members answer.",
  ];
}

/** The channels that are off, each with the variables that turn it on (from the plugin's `variables`). */
function offChannels(gateway: RunningGateway): string[] {
  const running = new Set(gateway.channels.map((instance) => instance.channel.name));
  const off = gateway.plugins.filter((plugin) => !running.has(plugin.name));
  if (off.length === 0) return [];
  const width = Math.max(...off.map((plugin) => plugin.title.length)) + 2;
  const heading = running.size > 0 ? "  More chat channels start" : "  Chat channels start";
  return [
    `${heading} when their variables are set:`,
    ...off.map((plugin) => `    ${plugin.title.padEnd(width)}${turnedOnBy(plugin)}`),
    "",
  ];
}

/**
 * What another terminal needs before the banner's commands work against this gateway: the URL when it
 * is not the default, and the token — said where it is, never printed (scrollback, screen shares).
 */
function clientSetup(gateway: RunningGateway): string[] {
  const lines: string[] = [];
  if (gateway.url !== DEFAULT_GATEWAY_URL) lines.push(`    export ASK_USER_URL=${gateway.url}`);
  if (gateway.config.token) {
    lines.push(
      "    export ASK_USER_TOKEN=…   # the ASK_USER_TOKEN this gateway was started with (not shown here)",
    );
  }
  return lines;
}

/** A channel in the banner: its own line once connected, else where it is (`telegram: connecting…`). */
function channelLine(supervised: SupervisedChannel): string {
  const { state, error, retryInSeconds } = supervised.status();
  if (state === "connected") return supervised.describe;
  if (state === "retrying")
    return `${supervised.describe}: retrying in ${retryInSeconds ?? 0} s (${error ?? "failed"})`;
  return `${supervised.describe}: ${state === "connecting" ? "connecting…" : "stopped"}`;
}

/**
 * The startup banner: which channels run, where the API and MCP are, and how to ask a first question —
 * with `pnpm ask …` when started by the repository's `pnpm start` (`viaPnpm`, the default), else with
 * the installed `ask-user` command.
 */
export function banner(gateway: RunningGateway, options: { viaPnpm?: boolean } = {}): string {
  const viaPnpm = options.viaPnpm ?? true;
  const { config, url } = gateway;
  const channels = gateway.channels.map(channelLine);
  const tokenHint = config.token ? " (send Authorization: Bearer $ASK_USER_TOKEN)" : "";
  // Never the token itself (terminal scrollback, screen shares, CI logs): the page asks for it once.
  const panel = config.token ? `${url}/ (open it and paste the value of ASK_USER_TOKEN)` : `${url}/`;
  const lines = [
    "",
    "  ask-user gateway is running",
    "",
    `  Web panel    ${panel}`,
    `  HTTP API     ${url}/v1${tokenHint}`,
    `  Events       ${url}/v1/events (Server-Sent Events)`,
    `  MCP          ${url}/mcp (Streamable HTTP) · stdio: ask-user mcp`,
    `  Store        ${config.redisUrl ? `Redis ${new URL(config.redisUrl).host} (shared)` : `SQLite ${config.dbPath}`}`,
    `  Channels     ${channels.length > 0 ? channels.join(", ") : "none (operator surfaces only: web panel, HTTP API, CLI, MCP)"}`,
    `  Default to   ${config.defaultTarget ? `${config.defaultTarget.channel}:${config.defaultTarget.conversation}` : "no default target (questions without a target wait on the operator surfaces)"}`,
    ...groupWarning(gateway),
    "",
    "  Ask a first question from another terminal:",
    ...clientSetup(gateway),
    viaPnpm
      ? "    pnpm ask examples/deploy-target.json"
      : "    ask-user ask question.json   # the ask_user tool input as JSON (ask-user ask --help)",
    "  and answer it in the web panel above, or in a terminal (same setup; arrow keys and Enter):",
    viaPnpm ? "    pnpm ask-user answer" : "    ask-user answer",
    "",
  ];
  lines.push(...offChannels(gateway));
  return lines.join("\n");
}

/**
 * The logger for `env`'s ASK_USER_LOG_FORMAT and ASK_USER_LOG_LEVEL (pretty on a terminal, JSON when
 * piped), or undefined when either is invalid — the configuration then reports it.
 */
function terminalLogger(env: Record<string, string | undefined>): { logger: Logger } | undefined {
  const level = env.ASK_USER_LOG_LEVEL?.trim() || "info";
  const format = env.ASK_USER_LOG_FORMAT?.trim() || undefined;
  if (!LOG_LEVELS.includes(level) || (format !== undefined && !LOG_FORMATS.includes(format)))
    return undefined;
  return { logger: createLogger(level, { pretty: prettyLog(env, process.stderr.isTTY === true) }) };
}

/** Why the gateway could not start, with the fix: who holds the port, why the database cannot open. */
async function startErrorMessage(
  error: unknown,
  env: Record<string, string | undefined>,
  dbPath: string | undefined,
): Promise<string> {
  const { code, port, address } = error as { code?: string; port?: unknown; address?: unknown };
  if (code === "EADDRINUSE") {
    const taken = typeof port === "number" ? port : Number(env.ASK_USER_PORT ?? 7310);
    const host = typeof address === "string" ? address : (env.ASK_USER_HOST ?? "127.0.0.1");
    const [holder, free] = await Promise.all([findPortHolder(host, taken), findFreePort(host, taken)]);
    return portInUseMessage(taken, holder, free);
  }
  if (dbPath !== undefined && isDatabaseOpenError(error))
    return prepareDatabaseFolder(dbPath) ?? databaseMessage(dbPath, error);
  return `The gateway could not start: ${(error as Error).message}`;
}

/**
 * `ask-user start`: runs the gateway until SIGTERM or SIGINT, then drains (stops intake, keeps pending
 * questions in the store) and exits 0. Invalid configuration prints one line per problem and exits 2.
 */
export async function runStart(
  io: StartIo = { stdout: process.stdout, stderr: process.stderr, env: process.env },
): Promise<number> {
  // The panel ships built in @ask-user/web (`pnpm build`; `pnpm start` builds first). Without it the
  // API, MCP and the channels run, and `/` says how to build it.
  if (!existsSync(join(webDistDir, "index.html")))
    io.stderr.write("The web panel is not built (run `pnpm build`); the API runs without it.\n");
  // The SQLite file's folder exists and is writable before the gateway takes the file's lock there.
  const dbPath = sqlitePath(io.env);
  const folderProblem = dbPath === undefined ? undefined : prepareDatabaseFolder(dbPath);
  if (folderProblem !== undefined) {
    io.stderr.write(`${folderProblem}\n`);
    return 1;
  }
  let gateway: RunningGateway;
  try {
    gateway = await startGateway({
      env: io.env,
      channelWaitMs: BANNER_CHANNEL_WAIT_MS,
      ...(terminalLogger(io.env) ?? {}),
    });
  } catch (error) {
    if (error instanceof ConfigError || error instanceof StoreLockedError) {
      io.stderr.write(`${error.message}\n`);
      if (error instanceof StoreLockedError) return 1;
      return 2;
    }
    io.stderr.write(`${await startErrorMessage(error, io.env, dbPath)}\n`);
    return 1;
  }
  io.stdout.write(`${banner(gateway, { viaPnpm: io.env[VIA_PNPM_ENV] === "1" })}\n`);
  const stopActivity = logActivity(gateway.broker, gateway.logger);
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      gateway.logger.info({ signal }, "stopping: pending questions stay in the store");
      resolve();
    };
    process.once("SIGTERM", () => stop("SIGTERM"));
    process.once("SIGINT", () => stop("SIGINT"));
  });
  stopActivity();
  let budget: NodeJS.Timeout | undefined;
  const overtime = new Promise<"overtime">((resolve) => {
    budget = setTimeout(() => resolve("overtime"), CLOSE_BUDGET_MS);
  });
  const outcome = await Promise.race([gateway.close().then(() => "closed" as const), overtime]);
  clearTimeout(budget);
  const code = outcome === "closed" ? 0 : 1;
  if (outcome === "closed") gateway.logger.info("stopped");
  else gateway.logger.warn({ budgetMs: CLOSE_BUDGET_MS }, "did not stop in time; exiting anyway");
  // Whatever still runs (a platform SDK reconnecting forever) must not keep the process alive.
  const exit = io.exit ?? ((exitCode: number) => process.exit(exitCode));
  setTimeout(() => exit(code), EXIT_GRACE_MS).unref();
  return code;
}
