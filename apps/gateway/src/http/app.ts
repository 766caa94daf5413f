import type { AskUserBroker, Target } from "@ask-user/core";
import { Hono } from "hono";
import type { Logger } from "pino";
import { mountPushRoutes } from "../push/routes.ts";
import type { PushService } from "../push/service.ts";
import { finishUnreadBody, MAX_DRAIN_BYTES, MAX_DRAIN_MS } from "./drain.ts";
import type { GatewayEnv, WebhookHandler } from "./env.ts";
import type { EventStream } from "./events.ts";
import {
  authCheck,
  bodyGuard,
  type Check,
  checked,
  drainCheck,
  hostCheck,
  MAX_BODY_BYTES,
  originCheck,
} from "./guards.ts";
import { MCP_PATH, type McpMount, mountMcp, mountReplyInbound, mountWebhooks } from "./inbound.ts";
import { mountQuestionRoutes } from "./questions.ts";
import { errorHandler, notFound, sendJson } from "./respond.ts";
import { routeGuard } from "./routes.ts";
import { createStaticSite, INSTALL_PATHS } from "./static.ts";

/** What the gateway's HTTP app serves. */
export interface HttpAppOptions {
  broker: AskUserBroker;
  token: string | undefined;
  defaultTarget: Target | undefined;
  channels: ReadonlySet<string>;
  logger: Logger;
  mcp?: McpMount;
  /**
   * Running channels whose replies come in at `POST /v1/channels/<name>/inbound` (the text webhook).
   * Default: none.
   */
  replyChannels?: ReadonlySet<string>;
  /** Channels that are off, by name: what turns them on (`set ASK_USER_TEXT_WEBHOOK_URL`), for 404s. */
  turnOn?: ReadonlyMap<string, string>;
  /**
   * Host names the gateway answers to (DNS-rebinding guard for a gateway without a token: a web page
   * whose name re-resolves to 127.0.0.1 still sends its own name in `Host`). Undefined: no check.
   */
  allowedHosts?: ReadonlySet<string>;
  /** The built web panel served at `/` (default: `@ask-user/web`'s `dist` folder). */
  webRoot?: string;
  /**
   * The chat platforms' inbound webhooks by channel name, mounted at `/channels/<name>/…` (a Telegram
   * webhook, Slack's Events API and interactivity): web-standard handlers that authenticate their
   * platform themselves.
   */
  webhooks?: ReadonlyMap<string, WebhookHandler>;
  /** The one body limit, in bytes. Default 1 MiB. */
  maxBodyBytes?: number;
  /**
   * How much of a refused request's body is still read (and dropped) before its connection is closed,
   * so that the client reads the refusal rather than a reset. Default 64 MiB.
   */
  maxDrainBytes?: number;
  /** How long a refused request's body is still read before its connection is closed. Default 10 s. */
  maxDrainMs?: number;
  /**
   * More fields for `GET /healthz`, read on every call and added after `ok` and `draining` (so
   * `ok: false` can be said here; the answer is then a 503).
   */
  health?: () => Record<string, unknown>;
  /**
   * `GET /metrics` (behind the token like `/v1`): the Prometheus text exposition, read on every call.
   * Undefined: no such route.
   */
  metrics?: () => Promise<{ contentType: string; body: string }>;
  /** Web Push (`/v1/push/key`, `/v1/push/subscriptions`). Undefined: no such routes. */
  push?: PushService;
  /**
   * Serve the agent's create, wait and answer (`POST /v1/questions`, `GET /v1/questions/:id`,
   * `POST /v1/questions/:id/answer`) through the fast lane in front of the app when every check admits
   * them (`fast-lane.ts`). Default true; false sends them through the
   * app like every other request (the bench compares the two).
   */
  fastLane?: boolean;
}

/**
 * The checks before routing, built once: the app's middleware runs them in this order, and so does
 * the fast lane, so both take and refuse the same requests.
 */
export interface GatewayChecks {
  host: Check;
  origin: Check;
  auth: Check;
  drain: Check;
  maxBodyBytes: number;
}

export function gatewayChecks(options: HttpAppOptions, draining: () => boolean): GatewayChecks {
  return {
    host: hostCheck(options.allowedHosts),
    origin: originCheck,
    auth: authCheck(options.token),
    drain: drainCheck(draining),
    maxBodyBytes: options.maxBodyBytes ?? MAX_BODY_BYTES,
  };
}

/**
 * The gateway's HTTP surface as one Hono app: the JSON API under `/v1` with its event stream, `/mcp`,
 * the web panel, `/healthz`, `/metrics` and the platforms' webhooks, behind one middleware stack — Host check,
 * Origin / `Sec-Fetch-Site` check on state-changing requests, bearer token, routing (404, 405 with
 * `Allow`), draining, JSON bodies within one size limit — and one error mapping to
 * `{ error: { code, message, issues? } }`. A refusal sent before a body was read waits for the rest of
 * that body (bounded) before the connection closes, so the client reads it.
 *
 * @example
 * const app = createHttpApp({ broker, token, defaultTarget: undefined, channels, logger }, { events, draining: () => false });
 * createAdaptorServer({ fetch: app.fetch }).listen(7310, "127.0.0.1");
 */
export function createHttpApp(
  options: HttpAppOptions,
  state: { events: EventStream; draining: () => boolean; checks?: GatewayChecks },
): Hono<GatewayEnv> {
  const checks = state.checks ?? gatewayChecks(options, state.draining);
  const app = new Hono<GatewayEnv>();
  const web = createStaticSite(options.webRoot);

  app.use(
    finishUnreadBody({
      maxBytes: options.maxDrainBytes ?? MAX_DRAIN_BYTES,
      maxMs: options.maxDrainMs ?? MAX_DRAIN_MS,
    }),
  );
  app.use(checked(checks.host));
  app.use(checked(checks.origin));
  app.use(checked(checks.auth));
  app.use(routeGuard(app, new Set([MCP_PATH])));
  app.use(checked(checks.drain));
  app.use(bodyGuard(checks.maxBodyBytes));

  app.get("/healthz", (c) => {
    const body = { ok: true, draining: state.draining(), ...options.health?.() };
    return sendJson(c, body.ok === false ? 503 : 200, body);
  });
  const metrics = options.metrics;
  if (metrics) {
    app.get("/metrics", async (c) => {
      const { contentType, body } = await metrics();
      return c.body(body, 200, { "content-type": contentType, "cache-control": "no-store" });
    });
  }
  app.get("/", (c) => web.index(c));
  app.get("/assets/*", (c) => web.asset(c));
  // The installable app's files (open paths: the browser fetches them without a token).
  for (const path of INSTALL_PATHS) app.get(path, (c) => web.installFile(c));
  mountQuestionRoutes(app, {
    broker: options.broker,
    defaultTarget: options.defaultTarget,
    channels: options.channels,
  });
  app.get("/v1/events", (c) => state.events.serve(c));
  if (options.push) mountPushRoutes(app, options.push);
  mountReplyInbound(app, options.broker, {
    running: options.channels,
    channels: options.replyChannels ?? new Set(),
    turnOn: options.turnOn ?? new Map(),
  });
  mountMcp(app, options.mcp);
  mountWebhooks(app, options.webhooks ?? new Map());

  app.notFound(notFound);
  app.onError(errorHandler(options.logger));
  return app;
}
