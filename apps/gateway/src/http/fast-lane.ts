import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import type { GatewayChecks } from "./app.ts";
import { checkBodyHead, type RequestHead, readIncoming } from "./guards.ts";
import { type HotRoutes, QUESTION_ID } from "./questions.ts";
import { failureReply, JSON_HEADERS, type JsonReply, parseJsonObject } from "./respond.ts";

/** The answer route's path, with the question id as the broker makes them. */
const ANSWER_PATH = new RegExp(`^/v1/questions/(${QUESTION_ID})/answer$`);
/** A question's path, with at most a plain `?wait=SECONDS` (any other query goes to the app). */
const READ_PATH = new RegExp(`^/v1/questions/(${QUESTION_ID})(?:\\?wait=(\\d{1,6}(?:\\.\\d{1,6})?))?$`);

/** Whether every header came once: node keeps the first of some repeated headers, the app joins them. */
function headersOnce(req: IncomingMessage): boolean {
  let count = 0;
  for (const _ in req.headers) count++;
  return count * 2 === req.rawHeaders.length;
}

/** The body is longer than its Content-Length: node's parser prevents it. */
const tooLarge = () => new Error("the body is longer than its Content-Length");

/** The client went away: a signal that aborts when the response closes before it was sent. */
function goneSignal(res: ServerResponse): AbortSignal {
  const abort = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) abort.abort();
  });
  return abort.signal;
}

const JSON_TYPE = JSON_HEADERS["content-type"];
const NO_STORE = JSON_HEADERS["cache-control"];

/**
 * Writes a {@link JsonReply}: the headers of the app's `sendJson` (the reply's own after them), then
 * the body's length. The usual reply has no headers of its own: a flat name/value array, which node writes
 * as it is (an object made by spreading costs node ~3 µs more a response to walk on Node 20).
 */
function sendReply(res: ServerResponse, reply: JsonReply): void {
  const text = JSON.stringify(reply.body);
  const length = Buffer.byteLength(text);
  if (reply.headers === undefined) {
    res.writeHead(reply.status, [
      "content-type",
      JSON_TYPE,
      "cache-control",
      NO_STORE,
      "content-length",
      length,
    ]);
  } else {
    res.writeHead(reply.status, { ...JSON_HEADERS, ...reply.headers, "content-length": length });
  }
  res.end(text);
}

type Route = "create" | "answer" | "read";

/**
 * A request the lane serves: its route and what the route needs, and the request as a
 * {@link RequestHead} for the checks (none of which the lane runs reads a query parameter). A class, so
 * that a request costs this one small object and no closures.
 */
class Taken implements RequestHead {
  constructor(
    readonly route: Route,
    /** The question's id ("" for a create). */
    readonly id: string,
    /** A read's `?wait=` text. */
    readonly wait: string | undefined,
    readonly method: string,
    /** The path without the query. */
    readonly path: string,
    private readonly headers: IncomingHttpHeaders,
  ) {}

  header(name: string): string | undefined {
    return this.headers[name] as string | undefined;
  }

  query(): undefined {
    return undefined;
  }
}

/** Which hot route a request is for, by method and URL; undefined for any other. */
function routeOf(method: string | undefined, url: string, headers: IncomingHttpHeaders): Taken | undefined {
  if (method === "POST") {
    if (url === "/v1/questions") return new Taken("create", "", undefined, method, url, headers);
    const id = ANSWER_PATH.exec(url)?.[1];
    return id === undefined ? undefined : new Taken("answer", id, undefined, method, url, headers);
  }
  if (method === "GET") {
    const read = READ_PATH.exec(url);
    if (read?.[1] === undefined) return undefined;
    const query = url.indexOf("?");
    const path = query < 0 ? url : url.slice(0, query);
    return new Taken("read", read[1], read[2], method, path, headers);
  }
  return undefined;
}

/**
 * The fast lane in front of the app, for the requests of every agent's cycle: `POST /v1/questions`,
 * `GET /v1/questions/:id` (with at most `?wait=SECONDS`) and `POST /v1/questions/:id/answer`; a POST
 * with a `Content-Length` body, a GET without a body, each header once. It runs the app's own checks
 * (Host, Origin, token, draining, JSON type and size, see `GatewayChecks`), the app's own route
 * functions (`HotRoutes`) and error mapping, but writes the JSON answer straight to node's response
 * instead of going through Hono, its adapter and a web `Response` (and a waiting GET holds none of
 * them). Anything a check refuses, and every other request, goes on to the app (returns false), which
 * refuses it with its reason and drains the unread body as for every request: the lane only ever
 * takes what the app would serve.
 */
export function createFastLane(options: {
  checks: GatewayChecks;
  routes: HotRoutes;
  logger: Logger;
}): (req: IncomingMessage, res: ServerResponse) => boolean {
  const { checks, routes, logger } = options;

  async function serve(req: IncomingMessage, res: ServerResponse, taken: Taken) {
    let reply: JsonReply;
    try {
      if (taken.route === "read") reply = await routes.read(taken.id, taken.wait, () => goneSignal(res));
      else {
        const body = parseJsonObject(await readIncoming(req, checks.maxBodyBytes, tooLarge));
        reply = taken.route === "create" ? await routes.create(body) : await routes.answer(taken.id, body);
      }
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      reply = failureReply(failure, logger, taken.method, taken.path);
    }
    sendReply(res, reply);
  }

  return (req, res) => {
    const headers = req.headers;
    const taken = routeOf(req.method, req.url ?? "", headers);
    if (!taken || !headersOnce(req)) return false;
    const length = headers["content-length"];
    const chunked = headers["transfer-encoding"] !== undefined;
    if (taken.route === "read") {
      if (chunked || (length !== undefined && length.trim() !== "0")) return false;
    } else if (length === undefined || chunked) return false;
    try {
      checks.host(taken);
      checks.origin(taken);
      checks.auth(taken);
      checks.drain(taken);
      if (taken.route !== "read") checkBodyHead(taken, length?.trim() !== "0", checks.maxBodyBytes);
    } catch {
      return false;
    }
    void serve(req, res, taken);
    return true;
  };
}
