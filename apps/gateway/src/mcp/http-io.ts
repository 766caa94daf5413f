import type { IncomingMessage, ServerResponse } from "node:http";
import { type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { RPC } from "./results.ts";

/** How much of a too-large body is still read (and dropped) so that the client can read the 413. */
export const DRAIN_MAX_BYTES = 64 * 1024 * 1024;
/** How long a too-large body is drained at most before the connection is closed. */
export const DRAIN_MAX_MS = 5_000;

export type ReadResult =
  | { ok: true; value: unknown }
  | { ok: false; status: number; code: number; message: string; close?: boolean };

/**
 * Reads a JSON body of at most `maxBytes`. A larger one is answered 413 only after the rest of it was
 * read and dropped (up to 64 MiB or 5 s; beyond that the connection is closed after the answer):
 * a client still sending never gets to read an answer written while it sends.
 */
export function readJson(req: IncomingMessage, maxBytes: number): Promise<ReadResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let timer: NodeJS.Timeout | undefined;
    let done = false;
    const tooLarge = (close: boolean): ReadResult => ({
      ok: false,
      status: 413,
      code: -32000,
      message: `Request body too large: at most ${maxBytes} bytes.`,
      close,
    });
    const finish = (result: ReadResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      if (!result.ok && result.close) req.pause();
      resolve(result);
    };
    const onData = (chunk: Buffer | string) => {
      const buffer = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      size += buffer.length;
      if (size <= maxBytes) {
        chunks.push(buffer);
        return;
      }
      if (timer === undefined) {
        chunks.length = 0;
        timer = setTimeout(() => finish(tooLarge(true)), DRAIN_MAX_MS);
      }
      if (size > maxBytes + DRAIN_MAX_BYTES) finish(tooLarge(true));
    };
    const onEnd = () => {
      if (size > maxBytes) return finish(tooLarge(false));
      try {
        finish({ ok: true, value: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
      } catch {
        finish({
          ok: false,
          status: 400,
          code: RPC.parseError,
          message: "Parse error: the body is not JSON.",
        });
      }
    };
    const onError = () =>
      finish({ ok: false, status: 400, code: RPC.parseError, message: "The body broke off." });
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > maxBytes + DRAIN_MAX_BYTES) {
      // Not worth draining: answer at once and close the connection.
      resolve(tooLarge(true));
      return;
    }
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
  });
}

/** A JSON-RPC error as the whole HTTP response (`id: null`: not tied to one request). */
export function sendError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

/** Writes one message as a Server-Sent Event of the response stream. */
export function writeEvent(res: ServerResponse, message: JSONRPCMessage): boolean {
  if (res.writableEnded || res.destroyed) return false;
  return res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
}

/** True when the client accepts an event stream (Streamable HTTP clients send both types). */
export function acceptsEventStream(req: IncomingMessage): boolean {
  return /text\/event-stream/i.test(req.headers.accept ?? "");
}

/** The SDK transport's DNS-rebinding check: exact `Host` values and `Origin`s; a message when refused. */
export function refusedHeaders(
  req: IncomingMessage,
  security: { allowedHosts?: string[]; allowedOrigins?: string[] } | undefined,
): string | undefined {
  if (!security) return undefined;
  const host = req.headers.host;
  if (security.allowedHosts?.length && (!host || !security.allowedHosts.includes(host))) {
    return `Invalid Host header: ${host ?? "(none)"}`;
  }
  const origin = req.headers.origin;
  if (security.allowedOrigins?.length && origin && !security.allowedOrigins.includes(origin)) {
    return `Invalid Origin header: ${origin}`;
  }
  return undefined;
}

/** The first value of a header. */
export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function closeIf(close: boolean | undefined): Record<string, string> {
  return close ? { connection: "close" } : {};
}

/** The JSON-RPC messages of a body (one, or a batch); `undefined` when it is not JSON-RPC 2.0. */
export function parseMessages(body: unknown): JSONRPCMessage[] | undefined {
  const list = Array.isArray(body) ? body : [body];
  if (list.length === 0) return undefined;
  const messages: JSONRPCMessage[] = [];
  for (const item of list) {
    const parsed = JSONRPCMessageSchema.safeParse(item);
    if (!parsed.success) return undefined;
    messages.push(parsed.data);
  }
  return messages;
}
