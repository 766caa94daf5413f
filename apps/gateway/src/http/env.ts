import type { HttpBindings } from "@hono/node-server";

/**
 * The Hono environment of the gateway's app: the node bindings (`incoming` / `outgoing`, used to mount
 * the MCP SDK's node transport) and the request body, read once by `bodyGuard` within the size limit.
 */
export interface GatewayEnv {
  Bindings: HttpBindings;
  Variables: { body: Uint8Array };
}

/** A chat platform's inbound endpoint as a web-standard handler: the request in, the response out. */
export type WebhookHandler = (request: Request) => Promise<Response>;

/** Where the platforms' webhooks are mounted: `/channels/<name>/…`. */
export const WEBHOOK_PREFIX = "/channels/";

/** Methods that change state: they pass the Origin check, and carry JSON when they carry a body. */
export const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Paths served without the token: the panel's own files (it asks for the token) and the health check. */
export function isOpenPath(path: string): boolean {
  return (
    path === "/" ||
    path === "/healthz" ||
    path.startsWith("/assets/") ||
    // The installable app's files, fetched by the browser itself (no token): manifest, worker, icons.
    path === "/manifest.webmanifest" ||
    path === "/sw.js" ||
    path.startsWith("/icons/")
  );
}

/** Paths of the platforms' webhooks, which authenticate their platform themselves (secret, signature). */
export function isWebhookPath(path: string): boolean {
  return path.startsWith(WEBHOOK_PREFIX);
}
