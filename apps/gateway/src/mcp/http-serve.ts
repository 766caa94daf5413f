import type { ServerResponse } from "node:http";
import type { AskUserLogger } from "@ask-user/core";
import type {
  JSONRPCMessage,
  JSONRPCRequest,
  JSONRPCResponse,
  RequestId,
  Result,
} from "@modelcontextprotocol/sdk/types.js";
import { CallAbort } from "./abort.ts";
import { writeEvent } from "./http-io.ts";
import { dispatch, type RpcContext, waits } from "./http-rpc.ts";
import type { Session } from "./http-sessions.ts";
import { ProtocolError, RPC } from "./results.ts";

/** Why a call's question is cancelled when its response stream closes before the answer. */
export const STREAM_CLOSED = "the HTTP response stream closed";

/** One request in flight: its JSON-RPC id and its cancellation (what `notifications/cancelled` aborts). */
export class Call extends CallAbort {
  constructor(
    readonly id: RequestId,
    /** The POST it came in: a closing response stream cancels its calls. */
    readonly post: object,
  ) {
    super();
  }
}

/**
 * Serves the requests of one POST: as an event stream when one of them waits (a plain `ask_user` call,
 * `tasks/result`) and the client accepts it — progress notifications, then each response as it is
 * ready, then the end — or else as one JSON answer. Each request is in `session.calls` while it runs,
 * so `notifications/cancelled` reaches it. Without an event store a stream that closes early can never
 * be resumed, so its calls are cancelled like an MCP cancellation (their questions end as cancelled).
 * `done` is called once every request was answered (or dropped).
 *
 * Returns at once, and keeps little while a call waits (ten thousand may): nothing of the request
 * bodies (only the JSON-RPC ids), one object for the POST and one per call, and one promise reaction
 * per call.
 */
export function serveRequests(
  ctx: RpcContext,
  session: Session,
  requests: JSONRPCRequest[],
  res: ServerResponse,
  options: { stream: boolean; logger: AskUserLogger },
  done: () => void,
): void {
  const stream = options.stream && requests.some(waits);
  const post = new Post(session, res, stream, requests.length, options.logger, done);
  res.on("close", () => post.closed());
  if (stream) {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.flushHeaders();
  }
  for (const [index, request] of requests.entries()) post.serve(ctx, request, index);
}

/** The requests of one POST in flight, and how their responses are sent. */
class Post {
  /** The responses of a JSON answer, by request index (an event stream sends each as it is ready). */
  readonly #responses: Array<JSONRPCResponse | undefined> | undefined;
  #left: number;

  constructor(
    private readonly session: Session,
    private readonly res: ServerResponse,
    private readonly stream: boolean,
    private readonly count: number,
    private readonly logger: AskUserLogger,
    private readonly done: () => void,
  ) {
    this.#left = count;
    this.#responses = stream ? undefined : new Array(count);
  }

  serve(ctx: RpcContext, request: JSONRPCRequest, index: number): void {
    const call = new Call(request.id, this);
    const { session } = this;
    session.calls ??= [];
    session.calls.push(call);
    const method = request.method;
    const scope = {
      client: session.id,
      signal: call,
      ...(this.stream ? { notify: notifier(this.res) } : {}),
    };
    dispatch(ctx, request, scope).then(
      (result) => this.settle(call, index, this.resultOf(call, result)),
      (error: unknown) => this.settle(call, index, this.errorOf(call, method, error)),
    );
  }

  /** The response stream closed: calls still running are cancelled (their questions with them). */
  closed(): void {
    if (this.#left === 0 || this.res.writableFinished) return;
    for (const call of [...(this.session.calls ?? [])]) if (call.post === this) call.abort(STREAM_CLOSED);
  }

  resultOf(call: Call, result: Result | undefined): JSONRPCResponse | undefined {
    return result === undefined || call.aborted ? undefined : { jsonrpc: "2.0", id: call.id, result };
  }

  /** A failed request's JSON-RPC error; `undefined` (no response) once it was cancelled. */
  errorOf(call: Call, method: string, error: unknown): JSONRPCResponse | undefined {
    if (call.aborted) return undefined;
    if (error instanceof ProtocolError) {
      return { jsonrpc: "2.0", id: call.id, error: { code: error.code, message: error.message } };
    }
    this.logger.error({ err: error, method }, "MCP request failed");
    const message = error instanceof Error ? error.message : String(error);
    return { jsonrpc: "2.0", id: call.id, error: { code: RPC.internalError, message } };
  }

  settle(call: Call, index: number, response: JSONRPCResponse | undefined): void {
    const { session, res } = this;
    const calls = session.calls;
    const at = calls?.indexOf(call) ?? -1;
    if (calls && at >= 0) calls.splice(at, 1);
    if (calls?.length === 0) session.calls = undefined;
    try {
      if (this.stream) {
        if (response) writeEvent(res, response);
      } else if (this.#responses) this.#responses[index] = response;
      if (--this.#left > 0) return;
      this.#end();
    } catch (error) {
      this.logger.error({ err: error }, "MCP request failed");
      res.destroy();
    } finally {
      if (this.#left === 0) this.done();
    }
  }

  #end(): void {
    const { res } = this;
    if (this.stream) {
      res.end();
      return;
    }
    const sent = (this.#responses ?? []).filter((r): r is JSONRPCResponse => r !== undefined);
    if (sent.length === 0) {
      if (!res.headersSent) res.writeHead(202);
      res.end();
      return;
    }
    if (res.headersSent || res.destroyed) return;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(sent.length === 1 && this.count === 1 ? sent[0] : sent));
  }
}

/** Sends a notification as an event of the response stream (a function made here: no name kept per call). */
function notifier(res: ServerResponse): (message: JSONRPCMessage) => Promise<void> {
  return (message) => {
    writeEvent(res, message);
    return Promise.resolve();
  };
}
