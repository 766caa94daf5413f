import type { ChannelPlugin } from "@ask-user/core";
import { readChannelConfigs, turnedOnBy } from "../channels.ts";
import { ConfigError, type GatewayConfig, loadConfig } from "../config.ts";
import { check, type DoctorCheck } from "./doctor-check.ts";

/** What the configuration checks found, for the checks after them. */
export interface ConfigFindings {
  checks: DoctorCheck[];
  /** The gateway's configuration, when it is valid. */
  config: GatewayConfig | undefined;
  /** The channels this environment turns on. */
  enabled: ChannelPlugin[];
}

/** `127.0.0.1:7310, SQLite .ask-user/ask-user.db, a token` — the valid configuration in short. */
function summary(config: GatewayConfig): string {
  const store = config.redisUrl ? `Redis ${new URL(config.redisUrl).host}` : `SQLite ${config.dbPath}`;
  const token = config.token ? "a token (ASK_USER_TOKEN)" : "no token";
  const target = config.defaultTarget
    ? `, default target ${config.defaultTarget.channel}:${config.defaultTarget.conversation}`
    : "";
  return `ASK_USER_* variables are valid: ${config.host}:${config.port}, ${store}, ${token}${target}`;
}

/**
 * The environment as `ask-user start` reads it, with the gateway's own reader (`loadConfig`) and each
 * channel plugin's (`readConfig`): one failed line per problem, as the readers word them (each names its
 * variable); for every channel whether it is on and which variables turn it on.
 */
export function configChecks(
  env: Record<string, string | undefined>,
  plugins: readonly ChannelPlugin[],
): ConfigFindings {
  const checks: DoctorCheck[] = [];
  const enabled = plugins.filter((plugin) => plugin.enabled(env));
  let config: GatewayConfig | undefined;
  try {
    config = loadConfig(
      env,
      enabled.map((plugin) => plugin.name),
    );
    checks.push(check("config", "config", "ok", summary(config)));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    for (const problem of error.problems) checks.push(check("config", "config", "fail", problem));
  }
  for (const plugin of plugins) {
    const id = `channel.${plugin.name}`;
    if (!enabled.includes(plugin)) {
      checks.push(check("config", id, "ok", `${plugin.name}: off (set ${turnedOnBy(plugin)} to turn it on)`));
      continue;
    }
    const { problems } = readChannelConfigs([plugin], env);
    if (problems.length === 0) {
      checks.push(check("config", id, "ok", `${plugin.name}: on (${turnedOnBy(plugin)} set)`));
      continue;
    }
    for (const problem of problems) checks.push(check("config", id, "fail", `${plugin.name}: ${problem}`));
  }
  return { checks, config, enabled };
}
