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

/** A node request as a {@link RequestHead} (no check the lane runs reads a query parameter). */
function nodeHead(method: string, path: string, headers: IncomingHttpHeaders): RequestHead {
  return {
    method,
    path,
    header: (name) => headers[name] as string | undefined,
    query: () => undefined,
  };
}

/** Whether every header came once: node keeps the first of some repeated headers, the app joins them. */
function headersOnce(req: IncomingMessage): boolean {
  let count = 0;
  for (const _ in req.headers) count++;
  return count * 2 === req.rawHeaders.length;
}

/** What the lane serves: a route of {@link HotRoutes} and what it needs from the request. */
type Taken =
  | { route: "create" | "answer"; id: string }
  | { route: "read"; id: string; wait: string | undefined };

/** Which hot route a request is for, by method and URL; undefined for any other. */
function routeOf(method: string | undefined, url: string): Taken | undefined {
  if (method === "POST") {
    if (url === "/v1/questions") return { route: "create", id: "" };
    const id = ANSWER_PATH.exec(url)?.[1];
    return id === undefined ? undefined : { route: "answer", id };
  }
  if (method === "GET") {
    const read = READ_PATH.exec(url);
    return read?.[1] === undefined ? undefined : { route: "read", id: read[1], wait: read[2] };
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
  const tooLarge = () => new Error("the body is longer than its Content-Length"); // node's parser prevents it

  /** The client went away: aborts when the response closes before it was sent. */
  const gone = (res: ServerResponse) => () => {
    const abort = new AbortController();
    res.once("close", () => {
      if (!res.writableFinished) abort.abort();
    });
    return abort.signal;
  };

  async function answer(req: IncomingMessage, res: ServerResponse, taken: Taken): Promise<JsonReply> {
    if (taken.route === "read") return routes.read(taken.id, taken.wait, gone(res));
    const body = parseJsonObject(await readIncoming(req, checks.maxBodyBytes, tooLarge));
    return taken.route === "create" ? routes.create(body) : routes.answer(taken.id, body);
  }

  async function serve(req: IncomingMessage, res: ServerResponse, path: string, taken: Taken) {
    let reply: JsonReply;
    try {
      reply = await answer(req, res, taken);
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      reply = failureReply(failure, logger, req.method ?? "", path);
    }
    const text = JSON.stringify(reply.body);
    res.writeHead(reply.status, {
      ...JSON_HEADERS,
      ...reply.headers,
      "content-length": Buffer.byteLength(text),
    });
    res.end(text);
  }

  return (req, res) => {
    const url = req.url ?? "";
    const taken = routeOf(req.method, url);
    if (!taken || !headersOnce(req)) return false;
    const headers = req.headers;
    const length = headers["content-length"];
    const chunked = headers["transfer-encoding"] !== undefined;
    const path = taken.route === "read" ? (url.split("?", 1)[0] ?? url) : url;
    const head = nodeHead(req.method ?? "", path, headers);
    if (taken.route === "read") {
      if (chunked || (length !== undefined && length.trim() !== "0")) return false;
    } else if (length === undefined || chunked) return false;
    try {
      checks.host(head);
      checks.origin(head);
      checks.auth(head);
      checks.drain(head);
      if (taken.route !== "read") checkBodyHead(head, length?.trim() !== "0", checks.maxBodyBytes);
    } catch {
      return false;
    }
    void serve(req, res, path, taken);
    return true;
  };
}
