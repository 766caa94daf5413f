import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ApiErrorBody } from "../api.ts";

/** An error that becomes `{ error: { code, message, issues? } }` with its status. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues?: Array<{ path: string; message: string }>,
  ) {
    super(message);
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
  });
  res.end(text);
}

export function sendError(res: ServerResponse, error: HttpError): void {
  const body: ApiErrorBody = { error: { code: error.code, message: error.message } };
  if (error.issues) body.error.issues = error.issues;
  sendJson(res, error.status, body);
}

const MAX_BODY_BYTES = 1024 * 1024;

/** Reads a JSON body (at most 1 MiB); an empty body is `{}`. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const type = req.headers["content-type"];
  if (type !== undefined && !/^application\/(.+\+)?json\b/i.test(type)) {
    throw new HttpError(
      415,
      "unsupported_media_type",
      `Send JSON (content-type: application/json), not ${type}.`,
    );
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES)
      throw new HttpError(413, "body_too_large", "The request body is larger than 1 MiB.");
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8").trim();
  if (text === "") return {};
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new HttpError(
      400,
      "invalid_json",
      `The request body is not valid JSON: ${(error as Error).message}`,
    );
  }
}

/** An object body, or a 400. */
export async function readObject(req: IncomingMessage): Promise<Record<string, unknown>> {
  const body = await readJson(req);
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new HttpError(400, "invalid_body", "The request body must be a JSON object.");
  }
  return body as Record<string, unknown>;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Checks the bearer token (`Authorization: Bearer …`, or `?token=` for EventSource and links). Throws
 * a 401 when a token is configured and the request lacks it.
 */
export function authenticate(req: IncomingMessage, url: URL, token: string | undefined): void {
  if (token === undefined) return;
  const header = req.headers.authorization;
  const given = header?.startsWith("Bearer ") ? header.slice(7).trim() : url.searchParams.get("token");
  if (given === null || given === undefined || given === "") {
    throw new HttpError(
      401,
      "unauthorized",
      "This gateway needs a token: send Authorization: Bearer <ASK_USER_TOKEN>.",
    );
  }
  if (!sameSecret(given, token)) throw new HttpError(401, "unauthorized", "The token is wrong.");
}
