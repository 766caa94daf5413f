import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Context, MiddlewareHandler } from "hono";
import { type GatewayEnv, isOpenPath, isWebhookPath, STATE_CHANGING } from "./env.ts";
import { HttpError } from "./respond.ts";

/**
 * The gateway's middleware: each cross-cutting rule once, for every route. In order: Host (DNS
 * rebinding), Origin / Sec-Fetch-Site (cross-site requests), bearer token, draining, body type and size.
 */

/** The one body limit (JSON under /v1, MCP messages, platform webhooks). */
export const MAX_BODY_BYTES = 1024 * 1024;

const REALM = 'Bearer realm="ask-user"';

/**
 * What the checks read of a request: its method, path (no query), a header by lower-case name and a
 * query parameter. Hono's context gives it (`headOf`), and so does a node request (the fast lane).
 */
export interface RequestHead {
  readonly method: string;
  readonly path: string;
  header(name: string): string | undefined;
  query(name: string): string | undefined;
}

/** One rule: returns when the request may go on, throws the {@link HttpError} that refuses it. */
export type Check = (head: RequestHead) => void;

/** A Hono context as a {@link RequestHead}. */
export function headOf(c: Context<GatewayEnv>): RequestHead {
  return {
    method: c.req.method,
    path: c.req.path,
    header: (name) => c.req.header(name),
    query: (name) => c.req.query(name),
  };
}

/** A check as the app's middleware. */
export function checked(check: Check): MiddlewareHandler<GatewayEnv> {
  return async (c, next) => {
    check(headOf(c));
    return next();
  };
}

/**
 * Refuses requests whose `Host` names another site: a web page whose name re-resolves to 127.0.0.1
 * still sends its own name. `allowed` undefined: no check (a token guards the gateway). The platforms'
 * webhooks are outside it: they come through public names and authenticate themselves.
 */
export function hostCheck(allowed: ReadonlySet<string> | undefined): Check {
  // Every request of a client sends the same Host: the last one's verdict saves parsing it again.
  let lastHost: string | undefined;
  return (head) => {
    if (allowed === undefined || isWebhookPath(head.path)) return;
    const host = head.header("host");
    if (host !== undefined && host === lastHost) return;
    let hostname: string | undefined;
    try {
      hostname = host ? new URL(`http://${host}`).hostname.toLowerCase() : undefined;
    } catch {
      hostname = undefined;
    }
    if (hostname !== undefined && allowed.has(hostname)) {
      lastHost = host;
      return;
    }
    throw new HttpError(
      403,
      "forbidden_host",
      `This gateway answers to ${[...allowed].join(", ")}, not "${host ?? ""}" (a guard against DNS rebinding). ` +
        "Set ASK_USER_TOKEN, or add the name to ASK_USER_ALLOWED_HOSTS.",
    );
  };
}

/** `host[:port]` of an origin or a Host header, lower-cased, default ports dropped; undefined if invalid. */
function hostOf(value: string, scheme = "http:"): string | undefined {
  try {
    const url = new URL(value.includes("://") ? value : `${scheme}//${value}`);
    return url.protocol === "http:" || url.protocol === "https:" ? url.host.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Refuses a state-changing request (POST, PUT, PATCH, DELETE) that a browser sent from another site:
 * `Sec-Fetch-Site: cross-site` or `same-site` (another port of the same host is another site's page),
 * or an `Origin` that is not the gateway's own (`null` included). The own origin is the request's
 * `Host` (the scheme may differ behind a TLS proxy). Clients that are not browsers send neither header.
 */
export const originCheck: Check = (head) => {
  if (!STATE_CHANGING.has(head.method)) return;
  const site = head.header("sec-fetch-site");
  if (site === "cross-site" || site === "same-site") {
    throw forbiddenOrigin(`the browser says the request comes from a ${site} page`);
  }
  const origin = head.header("origin");
  if (origin !== undefined) {
    const own = hostOf(head.header("host") ?? "");
    if (own === undefined || hostOf(origin) !== own) {
      throw forbiddenOrigin(`it comes from ${JSON.stringify(origin)}, not from this gateway's own page`);
    }
  }
};

function forbiddenOrigin(why: string): HttpError {
  return new HttpError(
    403,
    "forbidden_origin",
    `Refused: ${why}. A page on another site may not change anything here; use the web panel this ` +
      "gateway serves, or a client that is not a browser.",
  );
}

/** Whether `given` is the token (`expected`, its bytes made once), in constant time. */
function sameSecret(given: string, expected: Buffer): boolean {
  const a = Buffer.from(given);
  return a.length === expected.length && timingSafeEqual(a, expected);
}

/**
 * Bearer auth when a token is set: `Authorization: Bearer <token>` on every route but the open ones
 * (the panel's files, `/healthz`) and the webhooks. `?token=` is taken on `GET /v1/events` only, which
 * EventSource can't give headers; anywhere else it would end up in logs and shell history for nothing.
 */
export function authCheck(token: string | undefined): Check {
  const expected = token === undefined ? undefined : Buffer.from(token);
  return (head) => {
    const path = head.path;
    if (expected === undefined || isOpenPath(path) || isWebhookPath(path)) return;
    const header = head.header("authorization");
    let given: string | undefined;
    if (header !== undefined) given = /^Bearer +(\S+) *$/i.exec(header)?.[1];
    else if (head.method === "GET" && path === "/v1/events") given = head.query("token");
    if (given === undefined || given === "") {
      const message =
        header === undefined && head.query("token") !== undefined
          ? "?token= is accepted only on GET /v1/events (EventSource can't send headers): send Authorization: Bearer <ASK_USER_TOKEN>."
          : "This gateway needs a token: send Authorization: Bearer <ASK_USER_TOKEN>.";
      throw new HttpError(401, "unauthorized", message, undefined, { "www-authenticate": REALM });
    }
    if (!sameSecret(given, expected)) {
      throw new HttpError(401, "unauthorized", "The token is wrong.", undefined, {
        "www-authenticate": `${REALM}, error="invalid_token"`,
      });
    }
  };
}

/** While the gateway drains, requests that would start something are refused (MCP refuses on its own). */
export function drainCheck(draining: () => boolean): Check {
  return (head) => {
    if (!draining() || head.method === "GET" || head.method === "HEAD" || head.path === "/mcp") return;
    const message = "The gateway is shutting down; try again in a moment.";
    throw new HttpError(503, "shutting_down", message, undefined, { "retry-after": "5" });
  };
}

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;
/** The last `Content-Type` found to be JSON: clients send the same one on every request. */
let lastJsonType: string | undefined;

function isJson(type: string): boolean {
  if (type === lastJsonType) return true;
  const json = JSON_TYPE.test(type.trim());
  if (json) lastJsonType = type;
  return json;
}

/**
 * The headers' part of the body rule, for a state-changing request: its body — or its `Content-Type` —
 * must be JSON (415 otherwise): that is what refuses an HTML form and a `no-cors` fetch, which can't
 * send JSON. The webhooks are exempt from the type (Slack's interactivity is form-encoded) but not from
 * the size: a `Content-Length` over `maxBytes` is a 413 before anything is read.
 */
export function checkBodyHead(head: RequestHead, hasBody: boolean, maxBytes: number): void {
  const type = head.header("content-type");
  if (!isWebhookPath(head.path) && (hasBody || type !== undefined) && !isJson(type ?? "")) {
    const sent = type === undefined ? "no Content-Type" : `Content-Type: ${type}`;
    throw new HttpError(
      415,
      "unsupported_media_type",
      `Send JSON with Content-Type: application/json (this request has ${sent}).`,
    );
  }
  const length = head.header("content-length");
  if (length !== undefined && Number(length) > maxBytes) throw tooLarge(maxBytes);
}

function tooLarge(maxBytes: number): HttpError {
  return new HttpError(413, "body_too_large", `The request body is larger than ${maxBytes} bytes.`);
}

/**
 * Reads the body of a state-changing request once, at most `maxBytes` (413 beyond, whether or not a
 * `Content-Length` was sent), into `c.var.body`, after {@link checkBodyHead}.
 */
export function bodyGuard(maxBytes: number = MAX_BODY_BYTES): MiddlewareHandler<GatewayEnv> {
  const refuse = () => tooLarge(maxBytes);
  return async (c, next) => {
    if (!STATE_CHANGING.has(c.req.method)) return next();
    const length = c.req.header("content-length");
    // On Node the headers say whether a body follows (HTTP/1.1 needs one of the two); a request made
    // without a socket (`app.request`, another runtime) says so itself.
    const incoming: IncomingMessage | undefined = (c.env as Partial<GatewayEnv["Bindings"]> | undefined)
      ?.incoming;
    const hasBody = incoming
      ? (length !== undefined && length.trim() !== "0") || c.req.header("transfer-encoding") !== undefined
      : length !== undefined
        ? length.trim() !== "0"
        : c.req.raw.body !== null;
    checkBodyHead(headOf(c), hasBody, maxBytes);
    // On Node, read the socket's stream itself: asking `c.req.raw` for its body would make the adapter
    // build a full web Request and ReadableStream per request (about a tenth of the gateway's CPU).
    if (!hasBody) c.set("body", EMPTY);
    else if (incoming) c.set("body", await readIncoming(incoming, maxBytes, refuse));
    else c.set("body", await readLimited(c.req.raw, maxBytes, refuse));
    return next();
  };
}

const EMPTY = new Uint8Array();

/** Reads `incoming` whole, at most `maxBytes` (rejects with `tooLarge()` beyond, reading the rest). */
export function readIncoming(
  incoming: IncomingMessage,
  maxBytes: number,
  tooLarge: () => Error,
): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > maxBytes) {
        incoming.off("data", onData).off("end", onEnd);
        incoming.resume(); // the rest is read and dropped, so the 413 can still be sent
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      // Read to its end, the request emits nothing more (node emits a later error only to listeners):
      // a request that waits long (a long-poll, an MCP call) must not keep these closures and the body.
      incoming.off("data", onData).off("error", reject);
      resolve(chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks, size));
    };
    incoming.on("data", onData).once("end", onEnd).once("error", reject);
  });
}

async function readLimited(request: Request, maxBytes: number, tooLarge: () => Error): Promise<Uint8Array> {
  const reader = request.body?.getReader();
  if (!reader) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}
