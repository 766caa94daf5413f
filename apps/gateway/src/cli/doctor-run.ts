import type { ChannelPlugin } from "@ask-user/core";
import { loadChannelPlugins } from "../channels.ts";
import { check, type DoctorCheck, type DoctorReport, errorMessage } from "./doctor-check.ts";
import { configChecks } from "./doctor-config.ts";
import { gatewayChecks, portCheck } from "./doctor-gateway.ts";
import { setupChecks } from "./doctor-setup.ts";
import { storeChecks } from "./doctor-store.ts";
import { VIA_PNPM_ENV } from "./invocation.ts";
import { sqlitePath } from "./start-errors.ts";

/**
 * Runs every check of `ask-user doctor` against `env` (the variables `ask-user start` reads) and the
 * gateway at `url`: Node.js, pnpm and the build; the configuration and each channel's; the store (SQLite
 * folder, file read-only, lock; or Redis PING); the gateway (reachable, the token, each channel's state,
 * the port). Never changes anything.
 *
 * @example
 * const report = await runDoctor(process.env, "http://127.0.0.1:7310");
 * if (!report.ok) console.log(report.checks.filter((c) => c.status === "fail"));
 */
export async function runDoctor(env: Record<string, string | undefined>, url: string): Promise<DoctorReport> {
  const setup = setupChecks(env).catch((error: unknown) => [
    check("setup", "setup", "fail", `The setup checks failed: ${errorMessage(error)}`),
  ]);
  let plugins: ChannelPlugin[] = [];
  const loadProblems: DoctorCheck[] = [];
  try {
    plugins = await loadChannelPlugins();
  } catch (error) {
    const fix = "reinstall the dependencies (`pnpm install`) and build (`pnpm build`)";
    loadProblems.push(check("config", "channels", "fail", `${errorMessage(error)}: ${fix}.`));
  }
  const config = configChecks(env, plugins);
  const gateway = await gatewayChecks({
    url,
    token: env.ASK_USER_TOKEN?.trim() || undefined,
    startCommand: env[VIA_PNPM_ENV] === "1" ? "pnpm start" : "ask-user start",
    enabled: config.enabled.map((plugin) => plugin.name),
  });
  const redisUrl = config.config ? config.config.redisUrl : env.ASK_USER_REDIS_URL?.trim() || undefined;
  // A Redis URL that is no URL is one of the configuration's problems above; nothing to connect to.
  const storeToCheck =
    redisUrl === undefined
      ? { dbPath: config.config?.dbPath ?? sqlitePath(env), redisUrl }
      : { dbPath: undefined, redisUrl: isRedisUrl(redisUrl) ? redisUrl : undefined };
  const [store, port] = await Promise.all([
    storeChecks(storeToCheck, gateway.seen),
    config.config ? portCheck(config.config, gateway.seen) : Promise.resolve([]),
  ]);
  const checks = [...(await setup), ...loadProblems, ...config.checks, ...store, ...gateway.checks, ...port];
  return { ok: checks.every((item) => item.status !== "fail"), url, checks };
}

function isRedisUrl(text: string): boolean {
  return URL.canParse(text) && ["redis:", "rediss:"].includes(new URL(text).protocol);
}
