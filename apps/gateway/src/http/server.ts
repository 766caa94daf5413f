import { createServer, type Server } from "node:http";
import { getRequestListener } from "@hono/node-server";
import type { Hono } from "hono";
import { createHttpApp, gatewayChecks, type HttpAppOptions } from "./app.ts";
import type { GatewayEnv } from "./env.ts";
import { EventStream } from "./events.ts";
import { createFastLane } from "./fast-lane.ts";
import { hotRoutes } from "./questions.ts";

export type { HttpAppOptions as HttpServerOptions } from "./app.ts";
export type { WebhookHandler } from "./env.ts";
export { MAX_BODY_BYTES } from "./guards.ts";
export type { McpMount } from "./inbound.ts";

/** The running HTTP server, with a draining close. */
export interface HttpServer {
  /** The node server (not listening yet: the caller listens, and sees `EADDRINUSE` itself). */
  server: Server;
  /** The Hono app the server runs; `app.request(…)` serves a request without a socket. */
  app: Hono<GatewayEnv>;
  events: EventStream;
  /** Drains: refuses new work, ends event streams and MCP sessions, closes connections (2 s at most). */
  close(): Promise<void>;
}

/**
 * Creates the gateway's one HTTP server: the Hono app of `createHttpApp` on `@hono/node-server`, with the
 * fast lane for the agent's create, wait and answer in front of it (`fast-lane.ts`). Every failure is a JSON
 * error body; a crash in a handler is logged once and answered with 500.
 *
 * @example
 * const http = createHttpServer({ broker, token, defaultTarget: undefined, channels, logger });
 * http.server.listen(7310, "127.0.0.1");
 */
export function createHttpServer(options: HttpAppOptions): HttpServer {
  const events = new EventStream(options.broker);
  let draining = false;
  const checks = gatewayChecks(options, () => draining);
  const app = createHttpApp(options, { events, draining: () => draining, checks });
  const toApp = getRequestListener(app.fetch);
  const fastLane =
    options.fastLane === false
      ? undefined
      : createFastLane({ checks, routes: hotRoutes(options), logger: options.logger });
  const server = createServer((req, res) => {
    if (!fastLane?.(req, res)) void toApp(req, res);
  });
  server.keepAliveTimeout = 5_000;

  return {
    server,
    app,
    events,
    async close() {
      draining = true;
      events.close();
      await options.mcp?.close();
      await new Promise<void>((resolve) => {
        // Streams end a few ticks after they are told to: close each connection as soon as it is idle,
        // and cut whatever is still busy after 2 s.
        const idle = setInterval(() => server.closeIdleConnections(), 25);
        const cut = setTimeout(() => server.closeAllConnections(), 2_000);
        server.close(() => {
          clearInterval(idle);
          clearTimeout(cut);
          resolve();
        });
        server.closeIdleConnections();
      });
    },
  };
}
