import type { IncomingMessage } from "node:http";
import type { MiddlewareHandler } from "hono";
import type { GatewayEnv } from "./env.ts";

/**
 * Refusals that come before the body was read (413 by `Content-Length`, 415, 404, 401, …) and a 413 in
 * the middle of a body leave bytes the client is still sending. Closing a socket with unread bytes
 * resets it, and a client that writes its whole body before it reads (Python's urllib, many scripts)
 * then gets "broken pipe" instead of the answer. So the answer is sent at once, with
 * `Connection: close`, and the connection ends only once the rest of the body has been read and
 * dropped — at most this many bytes, for at most this long; past that it is cut.
 */
export const MAX_DRAIN_BYTES = 64 * 1024 * 1024;
export const MAX_DRAIN_MS = 10_000;

/** The bound on reading a refused request's body; see {@link MAX_DRAIN_BYTES}. */
export interface DrainLimits {
  maxBytes: number;
  maxMs: number;
}

/** Reads and drops the rest of `incoming`; settles at its end, when it closes, or past `limits`. */
export function drainIncoming(incoming: IncomingMessage, limits: DrainLimits): Promise<void> {
  return new Promise((resolve) => {
    let read = 0;
    const done = () => {
      clearTimeout(timer);
      incoming.off("data", onData).off("end", done).off("close", done).off("error", done);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      read += chunk.byteLength;
      if (read > limits.maxBytes) done();
    };
    const timer = setTimeout(done, limits.maxMs);
    incoming.on("data", onData).once("end", done).once("close", done).once("error", done);
    incoming.resume();
  });
}

/** Headers of a response whose body the node server writes itself (`RESPONSE_ALREADY_SENT`). */
const ALREADY_SENT = "x-hono-already-sent";

/**
 * The outermost middleware: an error answer to a request whose body is still arriving (on Node:
 * `incoming.complete` is false) is held open — its bytes sent, its end not yet — while the body is
 * drained within `limits`, and says `Connection: close`. Answers that read the body, and requests served
 * without a socket (`app.request`), are left as they are.
 */
export function finishUnreadBody(limits: DrainLimits): MiddlewareHandler<GatewayEnv> {
  return async (c, next) => {
    await next();
    const incoming = (c.env as Partial<GatewayEnv["Bindings"]> | undefined)?.incoming;
    const res = c.res;
    if (!incoming || incoming.complete || incoming.destroyed) return;
    if (res.status < 400 || res.headers.has(ALREADY_SENT)) return;
    // Error bodies are the app's small JSON: read whole, so the client gets a Content-Length and can
    // read the answer in full while the gateway still reads the rest of its body.
    const bytes = new Uint8Array(await res.arrayBuffer());
    const drained = drainIncoming(incoming, limits);
    const headers = new Headers(res.headers);
    headers.set("connection", "close");
    headers.set("content-length", String(bytes.byteLength));
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        if (bytes.byteLength > 0) controller.enqueue(bytes);
      },
      async pull(controller) {
        await drained;
        controller.close();
      },
    });
    c.res = new Response(body, { status: res.status, statusText: res.statusText, headers });
  };
}
