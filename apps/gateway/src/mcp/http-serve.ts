import type { ServerResponse } from "node:http";
import type { AskUserLogger } from "@ask-user/core";
import type { JSONRPCMessage, JSONRPCRequest, JSONRPCResponse } from "@modelcontextprotocol/sdk/types.js";
import { writeEvent } from "./http-io.ts";
import { dispatch, type RpcContext, waits } from "./http-rpc.ts";
import type { Session } from "./http-sessions.ts";
import { ProtocolError, RPC } from "./results.ts";

/** Why a call's question is cancelled when its response stream closes before the answer. */
export const STREAM_CLOSED = "the HTTP response stream closed";

/**
 * Serves the requests of one POST: as an event stream when one of them waits (a plain `ask_user` call,
 * `tasks/result`) and the client accepts it — progress notifications, then each response as it is
 * ready, then the end — or else as one JSON answer. Each request is in `session.calls` while it runs,
 * so `notifications/cancelled` reaches it. Without an event store a stream that closes early can never
 * be resumed, so its calls are cancelled like an MCP cancellation (their questions end as cancelled).
 *
 * Not an async function, and nothing of the request bodies is captured by what stays while a call
 * waits (only the JSON-RPC ids): ten thousand calls may wait at once.
 */
export function serveRequests(
  ctx: RpcContext,
  session: Session,
  requests: JSONRPCRequest[],
  res: ServerResponse,
  options: { stream: boolean; logger: AskUserLogger },
): Promise<void> {
  const stream = options.stream && requests.some(waits);
  const ids = requests.map((request) => request.id);
  const controllers = requests.map(() => new AbortController());
  session.calls ??= new Map();
  const calls = session.calls;
  for (const [index, id] of ids.entries()) calls.set(id, controllers[index] as AbortController);
  const onClose = () => {
    if (res.writableFinished) return;
    for (const controller of controllers) controller.abort(STREAM_CLOSED);
  };
  res.once("close", onClose);
  if (stream) {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.flushHeaders();
  }
  const notify = stream
    ? async (message: JSONRPCMessage) => {
        writeEvent(res, message);
      }
    : undefined;
  const { logger } = options;
  const answer = (request: JSONRPCRequest, index: number) => {
    const controller = controllers[index] as AbortController;
    const id = request.id;
    return respond(ctx, session.id, request, controller.signal, notify, logger).then((response) => {
      if (session.calls?.get(id) === controller) session.calls?.delete(id);
      if (response && stream) writeEvent(res, response);
      return response;
    });
  };
  // One request (the usual case) is served alone: no array of promises held while it waits.
  const only = requests.length === 1 ? (requests[0] as JSONRPCRequest) : undefined;
  const served = only ? answer(only, 0).then((response) => [response]) : Promise.all(requests.map(answer));
  const finish = () => {
    res.off("close", onClose);
    for (const [index, id] of ids.entries()) {
      if (session.calls?.get(id) === controllers[index]) session.calls?.delete(id);
    }
    if (session.calls?.size === 0) session.calls = undefined;
  };
  const single = ids.length === 1;
  return served
    .then((responses) => {
      if (stream) {
        res.end();
        return;
      }
      const sent = responses.filter((r): r is JSONRPCResponse => r !== undefined);
      if (sent.length === 0) {
        if (!res.headersSent) res.writeHead(202);
        res.end();
        return;
      }
      if (res.headersSent || res.destroyed) return;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(sent.length === 1 && single ? sent[0] : sent));
    })
    .then(finish, (error: unknown) => {
      finish();
      throw error;
    });
}

/** One request's response, or `undefined` when it was cancelled (no response then). */
function respond(
  ctx: RpcContext,
  client: string,
  request: JSONRPCRequest,
  signal: AbortSignal,
  notify: ((message: JSONRPCMessage) => Promise<void>) | undefined,
  logger: AskUserLogger,
): Promise<JSONRPCResponse | undefined> {
  const { id, method } = request;
  // Not an async function: a waiting call holds a promise reaction here, not a suspended frame, and
  // only the request's id and method (not its arguments).
  return dispatch(ctx, request, { client, signal, ...(notify ? { notify } : {}) }).then(
    (result): JSONRPCResponse | undefined =>
      result === undefined || signal.aborted ? undefined : { jsonrpc: "2.0", id, result },
    (error: unknown): JSONRPCResponse | undefined => {
      if (signal.aborted) return undefined;
      if (error instanceof ProtocolError) {
        return { jsonrpc: "2.0", id, error: { code: error.code, message: error.message } };
      }
      logger.error({ err: error, method }, "MCP request failed");
      const message = error instanceof Error ? error.message : String(error);
      return { jsonrpc: "2.0", id, error: { code: RPC.internalError, message } };
    },
  );
}
