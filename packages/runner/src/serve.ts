import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { ChannelListen } from "@ask-user/core";
import { createAdaptorServer } from "@hono/node-server";

/** How long a request in flight at the end may take before its connection is cut. */
const CLOSE_GRACE_MS = 1_000;

/** A listening webhook server: where it listens, and how to close it. */
export interface WebhookServer {
  /** `http://127.0.0.1:8443` (the port the system gave when `listen.port` was 0). */
  origin: string;
  close(): Promise<void>;
}

/**
 * Serves a channel's `handleWebhook` where its `listen` says: the request at one of `listen.paths` goes
 * to the handler as a web-standard `Request`, every other path gets 404. Resolves once listening;
 * rejects when the port can't be opened (`EADDRINUSE`). `close` lets requests in flight finish (1 s at
 * most) and closes idle keep-alive connections at once.
 */
export async function serveWebhook(
  handle: (request: Request) => Promise<Response>,
  listen: ChannelListen,
): Promise<WebhookServer> {
  const paths = new Set(listen.paths);
  const server = createAdaptorServer({
    fetch: (request: Request) =>
      paths.has(new URL(request.url).pathname) ? handle(request) : new Response("Not Found", { status: 404 }),
  }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(listen.port, listen.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { address, port, family } = server.address() as AddressInfo;
  return {
    origin: `http://${family === "IPv6" ? `[${address}]` : address}:${port}`,
    // The request that ended the run (the answering tap) gets its response; whatever is still busy
    // after a second is cut.
    close: () =>
      new Promise<void>((resolve) => {
        const cut = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
        server.close(() => {
          clearTimeout(cut);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
