/**
 * The standalone runner's own port: a small `node:http` server in front of the SAME web-standard
 * handler the gateway mounts at `/channels/slack/events`, so there is one handler implementation.
 * Only the given paths are served (404 elsewhere); a body over {@link WEBHOOK_BODY_MAX_BYTES} gets 413.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { AskUserLogger } from "@ask-user/core";
import { WEBHOOK_BODY_MAX_BYTES, WEBHOOK_CLOSE_GRACE_MS } from "./limits.ts";
import type { WebhookHandler } from "./receiver.ts";

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** Where and what to serve. */
export interface HandlerServerOptions {
  /** The request paths handed to the handler, e.g. `["/channels/slack/events"]`. */
  paths: readonly string[];
  host: string;
  /** 0 picks a free port. */
  port: number;
  logger: AskUserLogger;
  /** The channel's name, for logs. */
  name: string;
}

/** A listening server. */
export interface HandlerServer {
  /** The address it listens on, `host:port`. */
  address: string;
  port: number;
  close(): Promise<void>;
}

class BodyTooLarge extends Error {}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > WEBHOOK_BODY_MAX_BYTES) throw new BodyTooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    size += buffer.byteLength;
    if (size > WEBHOOK_BODY_MAX_BYTES) throw new BodyTooLarge();
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/** The node request as a web `Request` (body read in full, within the limit). */
async function toRequest(req: IncomingMessage, origin: string): Promise<Request> {
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    headers.append(req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string);
  }
  const method = req.method ?? "GET";
  const init: RequestInit = { method, headers };
  if (method !== "GET" && method !== "HEAD") init.body = await readBody(req);
  return new Request(new URL(req.url ?? "/", origin), init);
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  res.writeHead(response.status, headers).end(body);
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
 * Serves `handler` on its own port at `paths`.
 *
 * @example
 * const server = await serveHandler(receiver.handle, { paths: ["/channels/slack/events"], host: "127.0.0.1", port: 3000, logger, name: "slack" });
 * console.log(server.address); // 127.0.0.1:3000
 */
export async function serveHandler(
  handler: WebhookHandler,
  options: HandlerServerOptions,
): Promise<HandlerServer> {
  const closing = { value: false };
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  let origin = `http://${host}`;
  const paths = new Set(options.paths);
  const server = createServer((req, res) => {
    // While closing, a request that ends frees its kept-alive connection at once.
    res.once("finish", () => {
      if (closing.value) setImmediate(() => server.closeIdleConnections());
    });
    if (closing.value) res.setHeader("connection", "close");
    if (!paths.has(new URL(req.url ?? "/", origin).pathname)) {
      res.writeHead(404).end();
      return;
    }
    toRequest(req, origin)
      .then(handler)
      .then((response) => send(res, response))
      .catch((error: unknown) => {
        if (res.headersSent) return void res.end();
        if (error instanceof BodyTooLarge) return void res.writeHead(413, { connection: "close" }).end();
        options.logger.error({ channel: options.name, err: describeError(error) }, "webhook request failed");
        res.writeHead(500).end();
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
  origin = `http://${host}:${port}`;
  return { address: `${host}:${port}`, port, close: () => closeServer(server, closing) };
}
