import { createHash } from "node:crypto";
import { isIP } from "node:net";
import { resolve } from "node:path";
import { AskUserError, type ChannelPlugin, type Target } from "@ask-user/core";
import { parseTarget } from "./api.ts";
import { type EnabledChannel, readChannelConfigs } from "./channels.ts";

/** The gateway's configuration, read from the environment. */
export interface GatewayConfig {
  host: string;
  port: number;
  dbPath: string;
  /** Days an ended question is kept after its deadline (0: forever). */
  retentionDays: number;
  /** Shared store for several instances; when set, it replaces the SQLite file. */
  redisUrl: string | undefined;
  token: string | undefined;
  /** Extra host names (besides loopback and ASK_USER_HOST) a token-less gateway answers to. */
  allowedHosts: string[];
  defaultTarget: Target | undefined;
  locale: "en" | "de";
  answerers: "creator" | "conversation";
  logLevel: string;
  /**
   * How long a question this instance delivers or edits is left to it before another instance (or this
   * one after a restart) repairs it (`ASK_USER_CLAIM_SECONDS`, default 30).
   */
  claimSeconds: number;
  /**
   * This instance's name in leases and claims: `ASK_USER_INSTANCE_ID`, else — for a SQLite file, which
   * one process at a time runs — one derived from the file's absolute path (`sqlite-<16 hex>`), the same
   * at every start; `undefined` (random per start) with Redis or `:memory:`. A stable one lets a
   * restarted instance finish its own half-done deliveries and summary edits and take its leases back at
   * once instead of waiting them out.
   */
  instanceId: string | undefined;
  /**
   * True when `instanceId` was derived from `dbPath` rather than set: a gateway started with a store of
   * its own (`startGateway({ store })`) does not use the file, so it should not use that id either.
   */
  instanceIdDerived: boolean;
  /**
   * Memory the MCP endpoint may spend on open sessions and waiting calls, in MiB
   * (`ASK_USER_MCP_MEMORY_MB`); undefined: the endpoint's default (512 MiB). Past it a new session is
   * refused with 503 and `Retry-After` (idle sessions are closed first).
   */
  mcpMemoryMb: number | undefined;
}

/**
 * The default instance id of a gateway on the SQLite file `dbPath`: stable across restarts, and unique
 * among running gateways because one file is run by one process at a time (and a file is shared only
 * on one machine: SQLite's WAL journal does not work over a network file system).
 */
export function sqliteInstanceId(dbPath: string): string | undefined {
  if (dbPath === "" || dbPath === ":memory:") return undefined;
  return `sqlite-${createHash("sha256").update(resolve(dbPath)).digest("hex").slice(0, 16)}`;
}

/**
 * Invalid configuration (code `invalid_input`): every problem of the gateway's and the channels'
 * variables, one line each, each naming its variable.
 */
export class ConfigError extends AskUserError {
  override name = "ConfigError";
  constructor(readonly problems: string[]) {
    super("invalid_input", `Invalid configuration:\n${problems.map((p) => `- ${p}`).join("\n")}`);
  }
}

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "::1", "[::1]"]);

/** True for addresses only this machine can reach. */
export function isLoopback(host: string): boolean {
  if (LOOPBACK_NAMES.has(host)) return true;
  return isIP(host) === 4 && host.startsWith("127.");
}

/** The values of ASK_USER_LOG_LEVEL. */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];
/** The values of ASK_USER_LOG_FORMAT (default: pretty on a terminal, JSON otherwise). */
export const LOG_FORMATS = ["json", "pretty"];

/**
 * Reads the configuration from environment variables (all optional). Throws `ConfigError` listing every
 * problem at once. `channelsAvailable` are the channel names that will run, to check the default target.
 */
export function loadConfig(
  env: Record<string, string | undefined>,
  channelsAvailable: string[],
): GatewayConfig {
  const problems: string[] = [];
  const value = (name: string) => {
    const raw = env[name];
    return raw === undefined || raw.trim() === "" ? undefined : raw.trim();
  };

  const host = value("ASK_USER_HOST") ?? "127.0.0.1";
  const portText = value("ASK_USER_PORT") ?? "7310";
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65_535) {
    problems.push(`ASK_USER_PORT must be a port number (0-65535), not "${portText}".`);
  }

  const token = value("ASK_USER_TOKEN");
  if (token !== undefined && token.length < 16) {
    problems.push("ASK_USER_TOKEN must be at least 16 characters long (use a random string).");
  }
  if (!isLoopback(host) && token === undefined) {
    problems.push(
      `ASK_USER_HOST=${host} is reachable from other machines: set ASK_USER_TOKEN too, or bind to 127.0.0.1.`,
    );
  }

  let defaultTarget: Target | undefined;
  const targetText = value("ASK_USER_DEFAULT_TARGET");
  if (targetText !== undefined) {
    defaultTarget = parseTarget(targetText);
    if (!defaultTarget) {
      problems.push(
        `ASK_USER_DEFAULT_TARGET must look like "telegram:123456" (channel:conversation), not "${targetText}".`,
      );
    } else if (!channelsAvailable.includes(defaultTarget.channel)) {
      const running = channelsAvailable.length > 0 ? channelsAvailable.join(", ") : "none";
      problems.push(
        `ASK_USER_DEFAULT_TARGET names the channel "${defaultTarget.channel}", which is not configured (running: ${running}).`,
      );
    }
  }

  const localeText = (value("ASK_USER_LOCALE") ?? "en").toLowerCase();
  const locale = localeText.split(/[-_]/)[0];
  if (locale !== "en" && locale !== "de")
    problems.push(`ASK_USER_LOCALE must be "en" or "de", not "${localeText}".`);

  const answerers = value("ASK_USER_ANSWERERS") ?? "creator";
  if (answerers !== "creator" && answerers !== "conversation") {
    problems.push(`ASK_USER_ANSWERERS must be "creator" or "conversation", not "${answerers}".`);
  }

  const allowedHosts = (value("ASK_USER_ALLOWED_HOSTS") ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== "");

  const retentionText = value("ASK_USER_RETENTION_DAYS") ?? "30";
  const retentionDays = Number(retentionText);
  if (!/^\d+$/.test(retentionText)) {
    problems.push(
      `ASK_USER_RETENTION_DAYS must be a whole number of days (0 keeps questions forever), not "${retentionText}".`,
    );
  }

  const redisUrl = value("ASK_USER_REDIS_URL");
  if (redisUrl !== undefined && !/^rediss?:\/\/[^\s]+$/.test(redisUrl)) {
    problems.push(`ASK_USER_REDIS_URL must be a redis:// or rediss:// URL, not "${redisUrl}".`);
  }

  const claimText = value("ASK_USER_CLAIM_SECONDS") ?? "30";
  const claimSeconds = Number(claimText);
  if (!/^\d+$/.test(claimText) || claimSeconds < 1 || claimSeconds > 3600) {
    problems.push(
      `ASK_USER_CLAIM_SECONDS must be a whole number of seconds from 1 to 3600, not "${claimText}".`,
    );
  }

  const instanceId = value("ASK_USER_INSTANCE_ID");
  if (instanceId !== undefined && !/^[A-Za-z0-9._:-]{1,100}$/.test(instanceId)) {
    problems.push(`ASK_USER_INSTANCE_ID must be 1-100 letters, digits or . _ : -, not "${instanceId}".`);
  }

  const mcpMemoryText = value("ASK_USER_MCP_MEMORY_MB");
  const mcpMemoryMb = mcpMemoryText === undefined ? undefined : Number(mcpMemoryText);
  if (mcpMemoryText !== undefined && (!/^\d+$/.test(mcpMemoryText) || Number(mcpMemoryText) < 1)) {
    problems.push(
      `ASK_USER_MCP_MEMORY_MB must be a whole number of MiB of at least 1 (default 512), not "${mcpMemoryText}".`,
    );
  }

  const logLevel = value("ASK_USER_LOG_LEVEL") ?? "info";
  if (!LOG_LEVELS.includes(logLevel))
    problems.push(`ASK_USER_LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}.`);
  const logFormat = value("ASK_USER_LOG_FORMAT");
  if (logFormat !== undefined && !LOG_FORMATS.includes(logFormat))
    problems.push(
      `ASK_USER_LOG_FORMAT must be json or pretty (got "${logFormat}"); leave it unset for pretty on a terminal, JSON otherwise.`,
    );

  if (problems.length > 0) throw new ConfigError(problems);
  const dbPath = value("ASK_USER_DB") ?? ".ask-user/ask-user.db";
  const derivedId = instanceId === undefined && redisUrl === undefined ? sqliteInstanceId(dbPath) : undefined;
  return {
    host,
    port,
    dbPath,
    retentionDays,
    redisUrl,
    token,
    allowedHosts,
    defaultTarget,
    locale: locale as "en" | "de",
    answerers: answerers as "creator" | "conversation",
    logLevel,
    claimSeconds,
    instanceId: instanceId ?? derivedId,
    instanceIdDerived: derivedId !== undefined,
    mcpMemoryMb,
  };
}

/**
 * Reads the gateway's configuration and that of every channel whose variables are set. Throws one
 * `ConfigError` listing every problem of all of them, the gateway's first.
 *
 * @example
 * const { config, channels } = readGatewayConfig(process.env, await loadChannelPlugins());
 */
export function readGatewayConfig(
  env: Record<string, string | undefined>,
  plugins: readonly ChannelPlugin[],
): { config: GatewayConfig; channels: EnabledChannel[] } {
  const { channels, problems } = readChannelConfigs(plugins, env);
  let config: GatewayConfig | undefined;
  try {
    config = loadConfig(
      env,
      plugins.filter((plugin) => plugin.enabled(env)).map((plugin) => plugin.name),
    );
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.unshift(...error.problems);
  }
  if (config === undefined || problems.length > 0) throw new ConfigError(problems);
  return { config, channels };
}
