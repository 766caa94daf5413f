import { createAskUserClient, GatewayError } from "@ask-user/client";
import type { ChannelStatus } from "../channel-supervisor.ts";
import type { GatewayConfig } from "../config.ts";
import { check, type DoctorCheck, errorMessage } from "./doctor-check.ts";
import type { GatewaySeen } from "./doctor-store.ts";
import { findFreePort, findPortHolder, portInUseMessage } from "./start-errors.ts";

/** How long `/healthz` and the token's request may take. */
const HTTP_TIMEOUT_MS = 3_000;

/** What the checks of the gateway at `--url` need. */
export interface GatewayProbe {
  url: string;
  token: string | undefined;
  /** `pnpm start` in the repository, else `ask-user start`: how to start one. */
  startCommand: string;
  /** The channels this environment turns on (a gateway started with it runs them). */
  enabled: readonly string[];
}

/** The checks of the gateway at `--url`, and the gateway seen there (for the store's lock). */
export interface GatewayFindings {
  checks: DoctorCheck[];
  seen: GatewaySeen | undefined;
}

function port(url: string): number {
  const parsed = new URL(url);
  return Number(parsed.port || (parsed.protocol === "https:" ? 443 : 80));
}

/** Why `/healthz` got no gateway's answer, with what to do. */
function unreachable(probe: GatewayProbe, error: unknown): DoctorCheck {
  const { url } = probe;
  const fail = (message: string) => check("gateway", "gateway", "fail", message);
  if (!(error instanceof GatewayError)) return fail(`${url}/healthz failed: ${errorMessage(error)}`);
  if (error.reason === "unreachable")
    return fail(
      `Nothing answers at ${url}: start one with \`${probe.startCommand}\`, or point --url (ASK_USER_URL) at the gateway you run.`,
    );
  if (error.reason === "timeout")
    return fail(
      `The gateway at ${url} did not answer /healthz within ${HTTP_TIMEOUT_MS / 1000} s: it is overloaded or stuck (see its log), or something else holds the port.`,
    );
  if (error.status === 0)
    return fail(`${error.message} Is something other than an ask-user gateway listening there?`);
  if (/^http_\d+$/.test(error.reason) || error.reason === "bad_response")
    return notGateway(url, `HTTP ${error.status}`);
  return fail(`The gateway at ${url} refused /healthz (${error.status}): ${error.message}`);
}

function notGateway(url: string, what: string): DoctorCheck {
  return check(
    "gateway",
    "gateway",
    "fail",
    `${url} answers, but not as an ask-user gateway (/healthz: ${what}): another program has this port — point --url at the gateway, or start the gateway on another port (ASK_USER_PORT).`,
  );
}

/** An authorised `GET /v1/questions?limit=1`: the token (or none) is what the gateway wants. */
async function tokenCheck(
  probe: GatewayProbe,
  client: ReturnType<typeof createAskUserClient>,
): Promise<DoctorCheck> {
  try {
    await client.listPage({ limit: 1 });
    const message = probe.token ? "the gateway accepts ASK_USER_TOKEN" : "the gateway needs no token";
    return check("gateway", "gateway.token", "ok", message);
  } catch (error) {
    const status = error instanceof GatewayError ? error.status : 0;
    if (status === 401) {
      const what = probe.token ? "refused ASK_USER_TOKEN" : "wants a token";
      return check(
        "gateway",
        "gateway.token",
        "fail",
        `The gateway ${what} (401): set ASK_USER_TOKEN to the gateway's token.`,
      );
    }
    return check(
      "gateway",
      "gateway.token",
      "fail",
      `GET /v1/questions failed (${status || "no answer"}): ${errorMessage(error)}`,
    );
  }
}

/** Each channel's state as the gateway's `/healthz` says it, and channels on here that it does not run. */
function channelStates(probe: GatewayProbe, channels: Record<string, ChannelStatus>): DoctorCheck[] {
  const checks = Object.entries(channels).map(([name, status]) => {
    const id = `gateway.channel.${name}`;
    if (status.state === "connected") return check("gateway", id, "ok", `${name}: connected`);
    if (status.state === "connecting")
      return check(
        "gateway",
        id,
        "warn",
        `${name}: connecting${status.error ? ` again after: ${status.error}` : "…"}`,
      );
    if (status.state === "retrying") {
      const next =
        status.retryInSeconds === undefined ? "" : `; the gateway tries again in ${status.retryInSeconds} s`;
      return check("gateway", id, "fail", `${name}: failed: ${status.error ?? "no reason given"}${next}`);
    }
    return check("gateway", id, "warn", `${name}: stopped`);
  });
  for (const name of probe.enabled) {
    if (name in channels) continue;
    checks.push(
      check(
        "gateway",
        `gateway.channel.${name}`,
        "warn",
        `${name} is on in this environment but the gateway at ${probe.url} does not run it: it was started with other variables (restart it with these).`,
      ),
    );
  }
  return checks;
}

/** The gateway at `--url`: there and a gateway, the token, each channel's state. */
export async function gatewayChecks(probe: GatewayProbe): Promise<GatewayFindings> {
  const client = createAskUserClient({
    url: probe.url,
    token: probe.token,
    requestTimeoutMs: HTTP_TIMEOUT_MS,
  });
  let health: Record<string, unknown>;
  try {
    health = await client.health();
  } catch (error) {
    return { checks: [unreachable(probe, error)], seen: undefined };
  }
  if (typeof health.ok !== "boolean" || typeof health.draining !== "boolean")
    return { checks: [notGateway(probe.url, "JSON without ok and draining")], seen: undefined };
  const pid = typeof health.pid === "number" ? health.pid : undefined;
  const seen: GatewaySeen = { url: probe.url, port: port(probe.url), pid };
  const who = `an ask-user gateway answers at ${probe.url}${pid === undefined ? "" : ` (pid ${pid})`}`;
  const checks = [
    health.draining
      ? check(
          "gateway",
          "gateway",
          "warn",
          `${who}, but it is stopping (draining): start it again once it has stopped.`,
        )
      : check("gateway", "gateway", "ok", who),
    await tokenCheck(probe, client),
  ];
  const channels = (health.channels ?? {}) as Record<string, ChannelStatus>;
  checks.push(...channelStates(probe, channels));
  return { checks, seen };
}

/**
 * Where `ask-user start` with this configuration would listen, unless the gateway at `--url` is there:
 * free, another ask-user gateway (a warning: talk to that one), or another program (a start fails).
 */
export async function portCheck(
  config: GatewayConfig,
  seen: GatewaySeen | undefined,
): Promise<DoctorCheck[]> {
  const { host } = config;
  const wanted = config.port;
  if (wanted === 0 || seen?.port === wanted) return [];
  // The first port from `wanted` on that can be listened on: `wanted` itself when it is free.
  const free = await findFreePort(host, wanted - 1);
  if (free === wanted)
    return [check("gateway", "port", "ok", `port ${wanted} on ${host} is free for a start`)];
  const holder = await findPortHolder(host, wanted);
  const message = portInUseMessage(wanted, holder, free);
  if (holder.kind === "ask-user") {
    const shown = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
    return [
      check("gateway", "port", "warn", `${message} To check that one: --url http://${shown}:${wanted}`),
    ];
  }
  return [check("gateway", "port", "fail", message)];
}
