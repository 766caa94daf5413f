import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import type { GatewayChecks } from "./app.ts";
import { checkBodyHead, type RequestHead, readIncoming } from "./guards.ts";
import type { HotRoutes } from "./questions.ts";
import { failureReply, JSON_HEADERS, type JsonReply, parseJsonObject } from "./respond.ts";

/** The answer route's path, with the question id as the broker makes them. */
const ANSWER_PATH = /^\/v1\/questions\/([A-Za-z0-9_-]{1,64})\/answer$/;

/** A node request's headers as a {@link RequestHead} (the lane takes no query string). */
function headOf(path: string, headers: IncomingHttpHeaders): RequestHead {
  return {
    method: "POST",
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

/**
 * The fast lane in front of the app, for the two requests of every agent's cycle: `POST /v1/questions`
 * and `POST /v1/questions/:id/answer` without a query string, a `Content-Length` body and each header once.
 * It runs the app's own checks (Host, Origin, token, draining, JSON type and size, see `GatewayChecks`)
 * and the app's own route functions (`HotRoutes`) and error mapping, but writes the JSON answer straight
 * to node's response instead of going through Hono, its adapter and a web `Response`. Anything a check
 * refuses, and every other request, goes on to the app (returns false), which refuses it with its reason
 * and drains the unread body as for every request: the lane only ever takes what the app would serve.
 */
export function createFastLane(options: {
  checks: GatewayChecks;
  routes: HotRoutes;
  logger: Logger;
}): (req: IncomingMessage, res: ServerResponse) => boolean {
  const { checks, routes, logger } = options;
  const tooLarge = () => new Error("the body is longer than its Content-Length"); // node's parser prevents it

  async function serve(req: IncomingMessage, res: ServerResponse, path: string, id: string | undefined) {
    let reply: JsonReply;
    try {
      const body = parseJsonObject(await readIncoming(req, checks.maxBodyBytes, tooLarge));
      reply = id === undefined ? await routes.create(body) : await routes.answer(id, body);
    } catch (error) {
      reply = failureReply(error instanceof Error ? error : new Error(String(error)), logger, "POST", path);
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
    if (req.method !== "POST") return false;
    const path = req.url ?? "";
    let id: string | undefined;
    if (path !== "/v1/questions") {
      id = ANSWER_PATH.exec(path)?.[1];
      if (id === undefined) return false;
    }
    const headers = req.headers;
    const length = headers["content-length"];
    if (length === undefined || headers["transfer-encoding"] !== undefined || !headersOnce(req)) return false;
    const head = headOf(path, headers);
    try {
      checks.host(head);
      checks.origin(head);
      checks.auth(head);
      checks.drain(head);
      checkBodyHead(head, length.trim() !== "0", checks.maxBodyBytes);
    } catch {
      return false;
    }
    void serve(req, res, path, id);
    return true;
  };
}
