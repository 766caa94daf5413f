import { AskUserError, codeOfStatus, type InputIssue } from "@ask-user/core";
import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { Logger } from "pino";
import type { ApiErrorBody } from "../api.ts";
import type { GatewayEnv } from "./env.ts";

/**
 * An expected HTTP failure, in core's `AskUserError` family (its code from core's one status table,
 * `codeOfStatus`: 404 `unknown_question`, 409 `not_pending`, …): becomes
 * `{ error: { code: reason, message, issues? } }` with its status (and extra headers such as
 * `WWW-Authenticate`, `Allow`, `Retry-After`) through the app's one error handler.
 */
export class HttpError extends AskUserError {
  override name = "HttpError";

  /** `reason` is the API's error code in the response body (`not_found`, `unauthorized`, …). */
  constructor(
    readonly status: ContentfulStatusCode,
    readonly reason: string,
    message: string,
    readonly issues?: InputIssue[],
    readonly headers?: Record<string, string>,
  ) {
    super(codeOfStatus(status, reason), message);
  }
}

export const JSON_HEADERS = {
  "content-type": "application/json; charset=utf-8",
  "cache-control": "no-store",
};

/**
 * A JSON response that no cache keeps. Built as a plain `Response` with a plain header object (the node
 * adapter writes it as is), not through `c.body`, which would build a `Headers` object that the adapter
 * then turns back into a plain object, on every answer. The app sets no headers ahead with `c.header`
 * on the routes that answer with JSON (only the event stream does, and its errors need none of them).
 */
export function sendJson(
  _c: Context,
  status: ContentfulStatusCode,
  body: unknown,
  headers?: Record<string, string>,
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: headers ? { ...JSON_HEADERS, ...headers } : JSON_HEADERS,
  });
}

/** The JSON error response of an {@link HttpError}. */
export function sendError(c: Context, error: HttpError): Response {
  return reply(c, errorReply(error));
}

const CODES: Partial<Record<number, string>> = {
  400: "bad_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  405: "method_not_allowed",
  413: "body_too_large",
  415: "unsupported_media_type",
};

/** A JSON answer before it is written: status, body and extra headers. */
export interface JsonReply {
  status: ContentfulStatusCode;
  body: unknown;
  headers?: Record<string, string>;
}

/** The JSON reply of an {@link HttpError}. */
export function errorReply(error: HttpError): JsonReply {
  const body: ApiErrorBody = { error: { code: error.reason, message: error.message } };
  if (error.issues) body.error.issues = error.issues;
  return error.headers
    ? { status: error.status, body, headers: error.headers }
    : { status: error.status, body };
}

/**
 * The app's one error mapping: an {@link HttpError} (or Hono's own `HTTPException`) is its JSON error; a
 * store or broker that is closing is a 503; anything else is a bug, logged once with the request and
 * answered with a 500 that leaks nothing.
 */
export function failureReply(error: Error, logger: Logger, method: string, path: string): JsonReply {
  if (error instanceof HttpError) return errorReply(error);
  if (error instanceof HTTPException) {
    const code = CODES[error.status] ?? "http_error";
    return errorReply(new HttpError(error.status, code, error.message || code.replaceAll("_", " ")));
  }
  if ("code" in error && error.code === "closed") {
    const message = "The gateway is shutting down; the question stays pending.";
    return errorReply(new HttpError(503, "shutting_down", message));
  }
  logger.error({ err: error, method, path }, "request failed");
  return errorReply(new HttpError(500, "internal", "Something went wrong on the gateway; it was logged."));
}

/** {@link failureReply} as the app's error handler. */
export function errorHandler(logger: Logger): ErrorHandler<GatewayEnv> {
  return (error, c) => reply(c, failureReply(error, logger, c.req.method, c.req.path));
}

/** Sends a {@link JsonReply}. */
export function reply(c: Context, answer: JsonReply): Response {
  return sendJson(c, answer.status, answer.body, answer.headers);
}

/** The JSON 404 of a path the app does not have: it says where the API is. */
export function noRouteError(method: string, path: string): HttpError {
  return new HttpError(404, "not_found", `No route ${method} ${path}. The API lives under /v1.`);
}

/** Unknown paths (the fallback behind the route guard). */
export const notFound: NotFoundHandler<GatewayEnv> = (c) =>
  sendError(c, noRouteError(c.req.method, c.req.path));

/** A 405 naming the methods the path has (sorted), in `Allow` and in the message. */
export function methodNotAllowedError(method: string, path: string, methods: Iterable<string>): HttpError {
  const allow = [...methods].sort().join(", ");
  const message = `${method} is not allowed on ${path} (allowed: ${allow}).`;
  return new HttpError(405, "method_not_allowed", message, undefined, { allow });
}

/** One decoder for every body: making a `TextDecoder` costs more than decoding a small body with it. */
const utf8 = new TextDecoder();

/** A request body as JSON (an empty body is `{}`), or a 400. */
function parseJson(bytes: Uint8Array): unknown {
  const text = utf8.decode(bytes).trim();
  if (text === "") return {};
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const reason = (error as Error).message;
    throw new HttpError(400, "invalid_json", `The request body is not valid JSON: ${reason}`);
  }
}

/** A request body as a JSON object, or a 400. */
export function parseJsonObject(bytes: Uint8Array): Record<string, unknown> {
  const body = parseJson(bytes);
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new HttpError(400, "invalid_body", "The request body must be a JSON object.");
  }
  return body as Record<string, unknown>;
}

/** The request body (read by `bodyGuard`) as a JSON object, or a 400. */
export function readObject(c: Context<GatewayEnv>): Record<string, unknown> {
  return parseJsonObject(c.get("body"));
}
