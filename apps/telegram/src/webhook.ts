/**
 * Serves a grammY bot's webhook on `node:http`: only POSTs to the webhook URL's path are handled, the
 * secret header is checked by grammY on every request (wrong or missing → 401, no handler runs).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { AskUserLogger } from "@ask-user/core";
import { type Bot, type Context, webhookCallback } from "grammy";
import { describeError } from "./errors.ts";
import { WEBHOOK_CLOSE_GRACE_MS } from "./limits.ts";

/** Where and how to serve the webhook. */
export interface WebhookServerOptions {
  /** The path requests must use (the public webhook URL's path), e.g. `/telegram`. */
  path: string;
  secretToken: string;
  host: string;
  /** 0 picks a free port. */
  port: number;
  logger: AskUserLogger;
}

/** A listening webhook server. */
export interface WebhookServer {
  /** The address it listens on, `host:port`. */
  address: string;
  port: number;
  close(): Promise<void>;
}

function closeServer(server: Server, closing: { value: boolean }): Promise<void> {
  closing.value = true;
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => server.closeAllConnections(), WEBHOOK_CLOSE_GRACE_MS);
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/**
 * Starts an HTTP server that feeds the bot from Telegram's webhook requests.
 *
 * @example
 * const server = await serveWebhook(bot, { path: "/tg", secretToken, host: "127.0.0.1", port: 8443, logger });
 * await bot.api.setWebhook("https://bot.example.com/tg", { secret_token: secretToken });
 */
export async function serveWebhook<C extends Context>(
  bot: Bot<C>,
  options: WebhookServerOptions,
): Promise<WebhookServer> {
  const handle = webhookCallback(bot, "http", { secretToken: options.secretToken });
  const closing = { value: false };
  const server = createServer((req, res) => {
    // While closing, a request that ends frees its kept-alive connection at once.
    res.once("finish", () => {
      if (closing.value) setImmediate(() => server.closeIdleConnections());
    });
    if (closing.value) res.setHeader("connection", "close");
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (path !== options.path) {
      res.writeHead(404).end();
      return;
    }
    if (req.method !== "POST") {
      res.writeHead(405, { allow: "POST" }).end();
      return;
    }
    handle(req, res).catch((error: unknown) => {
      options.logger.error({ channel: "telegram", err: describeError(error) }, "webhook update failed");
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  return { address: `${host}:${port}`, port, close: () => closeServer(server, closing) };
}
