import type { IncomingMessage, ServerResponse } from "node:http";
import { consoleLogger } from "@ask-user/core";
import {
  type JSONRPCRequest,
  type RequestId,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";
import { createAskUserService, type McpServerOptions } from "./ask.ts";
import {
  acceptsEventStream,
  closeIf,
  header,
  parseMessages,
  type ReadResult,
  readJson,
  refusedHeaders,
  sendError,
} from "./http-io.ts";
import { initializeResult, type RpcContext } from "./http-rpc.ts";
import { serveRequests } from "./http-serve.ts";
import { createSessionTable, type Session } from "./http-sessions.ts";
import { RPC } from "./results.ts";
import { askUserMcpTool } from "./tool.ts";

/** Options of {@link createMcpHttpHandler}: the server's options plus the session bounds. */
export interface McpHttpHandlerOptions extends McpServerOptions {
  /**
   * What the MCP sessions may take of the gateway's memory, by the measured cost of each (see
   * `SESSION_BYTES`, `CALL_BYTES`). A new session beyond it closes the least recently used idle one
   * (never one with a call in flight); when none is idle the new session — or call — is refused with
   * 503. Default 512 MiB (about 25,000 sessions with a call waiting).
   */
  memoryBudgetBytes?: number;
  /** Optional hard bound on the number of open sessions, applied like the budget. Default: none. */
  maxSessions?: number;
  /** A session with nothing in flight and no request for this long is closed. Default 30 minutes. */
  idleSessionMs?: number;
  /** Largest POST body read when none is given to `handle`. Default 4 MiB (the SDK's bound). */
  maxBodyBytes?: number;
  /**
   * The DNS-rebinding check of the SDK's transport, read per request (the gateway knows its port only
   * once it listens): the exact `Host` values and `Origin`s accepted. Undefined: none (the gateway's
   * middleware checks Host and Origin for every route anyway).
   */
  transportSecurity?: () => McpTransportSecurity | undefined;
}

/** `allowedHosts` / `allowedOrigins` (exact header values), as the SDK's Streamable HTTP transport takes them. */
export interface McpTransportSecurity {
  allowedHosts?: string[];
  allowedOrigins?: string[];
}

/** The gateway's `/mcp` route. */
export interface McpHttpHandler {
  /**
   * Serves one request (POST, GET or DELETE); `parsedBody` is the JSON body when already read. Resolves
   * once the request is taken: a call that waits goes on writing its progress and result to `res`
   * afterwards, so whoever awaits this (the HTTP app's route and middleware) holds nothing while it waits.
   */
  handle(req: IncomingMessage, res: ServerResponse, parsedBody?: unknown): Promise<void>;
  /** Closes every session: plain calls still waiting are cancelled, with their questions (tasks stay). */
  close(): Promise<void>;
  /** How many sessions are open now. */
  readonly sessions: number;
}

const DEFAULT_MEMORY_BUDGET_BYTES = 512 * 1024 * 1024;
const DEFAULT_IDLE_SESSION_MS = 30 * 60_000;
const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
/** How long `close()` waits for interrupted calls to cancel their questions. */
const CLOSE_GRACE_MS = 5_000;

/**
 * MCP over Streamable HTTP, served by one shared router for every session: `initialize` opens a
 * session (`mcp-session-id`), which is only a small record (id, protocol version, last use, the calls in
 * flight), so progress and cancellation reach the call they belong to without an SDK server and
 * transport per session. A POST answers with JSON, or with an event stream for a call that waits (its
 * progress, then its result). GET offers no server stream (405). Sessions end on DELETE, on `close()`,
 * after `idleSessionMs` with nothing in flight, or when evicted as the least recently used idle session
 * to stay within the memory budget; a session with a call in flight is never evicted. Tasks are not
 * bound to a session. The caller authenticates requests.
 *
 * @example
 * const mcp = createMcpHttpHandler({ backend });
 * http.createServer((req, res) => {
 *   if (new URL(req.url ?? "/", "http://x").pathname === "/mcp" && authorized(req)) void mcp.handle(req, res);
 * });
 */
export function createMcpHttpHandler(options: McpHttpHandlerOptions): McpHttpHandler {
  const {
    memoryBudgetBytes = DEFAULT_MEMORY_BUDGET_BYTES,
    maxSessions = Number.POSITIVE_INFINITY,
    maxBodyBytes = DEFAULT_MAX_BODY_BYTES,
    idleSessionMs = DEFAULT_IDLE_SESSION_MS,
    transportSecurity,
    ...serverOptions
  } = options;
  const logger = serverOptions.logger ?? consoleLogger;
  const service = createAskUserService(serverOptions);
  const ctx: RpcContext = { service, tool: askUserMcpTool(), version: serverOptions.version ?? "0.1.0" };
  const sessions = createSessionTable({ memoryBudgetBytes, maxSessions, idleSessionMs });
  let closed = false;

  const open = (res: ServerResponse, request: JSONRPCRequest) => {
    const why = sessions.refusesSession();
    if (why !== undefined) {
      return sendError(res, 503, -32000, `Too many MCP sessions with calls in flight (${why}).`, {
        "retry-after": "30",
      });
    }
    let result: ReturnType<typeof initializeResult>;
    try {
      result = initializeResult(ctx, request);
    } catch (error) {
      return sendError(res, 400, RPC.invalidParams, error instanceof Error ? error.message : String(error));
    }
    const session = sessions.open(result.protocolVersion);
    res.writeHead(200, { "content-type": "application/json", "mcp-session-id": session.id });
    res.end(JSON.stringify({ jsonrpc: "2.0", id: request.id, result }));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown) => {
    if (closed) return sendError(res, 503, -32000, "The MCP endpoint is shutting down.");
    const refused = refusedHeaders(req, transportSecurity?.());
    if (refused) return sendError(res, 403, -32000, refused);
    const sessionId = header(req, "mcp-session-id");
    const session = sessionId === undefined ? undefined : sessions.get(sessionId);
    if (req.method === "GET" || req.method === "DELETE") {
      if (sessionId === undefined) {
        return sendError(res, 400, -32000, "Bad Request: the mcp-session-id header is missing.");
      }
      if (!session) return sendError(res, 404, -32001, "Session not found; initialize a new session.");
      if (req.method === "GET") {
        // No server-initiated stream: every message belongs to a request (MCP allows answering 405).
        return sendError(res, 405, -32000, "This server sends no stream on GET.", { allow: "POST, DELETE" });
      }
      sessions.end(session, "the client ended the MCP session");
      res.writeHead(200).end();
      return;
    }
    if (req.method !== "POST") {
      return sendError(res, 405, -32000, "Method not allowed.", { allow: "GET, POST, DELETE" });
    }
    let body = parsedBody;
    if (body === undefined) {
      const read: ReadResult = await readJson(req, maxBodyBytes);
      if (!read.ok) return sendError(res, read.status, read.code, read.message, closeIf(read.close));
      body = read.value;
    }
    const messages = parseMessages(body);
    if (!messages) {
      return sendError(
        res,
        400,
        RPC.invalidRequest,
        "Invalid Request: the body is not a JSON-RPC 2.0 message.",
      );
    }
    const initialize = messages.find((m) => "method" in m && m.method === "initialize" && "id" in m);
    if (initialize) {
      if (messages.length > 1) {
        return sendError(res, 400, RPC.invalidRequest, "Invalid Request: initialize must be sent alone.");
      }
      return open(res, initialize as JSONRPCRequest);
    }
    if (sessionId === undefined) {
      return sendError(res, 400, -32000, "Bad Request: no valid session id; initialize first.");
    }
    if (!session) return sendError(res, 404, -32001, "Session not found; initialize a new session.");
    const version = header(req, "mcp-protocol-version");
    if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
      return sendError(res, 400, -32000, `Bad Request: unsupported protocol version ${version}.`);
    }
    sessions.touch(session);
    const requests: JSONRPCRequest[] = [];
    for (const message of messages) {
      if ("id" in message && "method" in message) requests.push(message as JSONRPCRequest);
      else if ("method" in message && message.method === "notifications/cancelled") {
        const params = message.params as { requestId?: RequestId; reason?: string } | undefined;
        const id = params?.requestId;
        const call = id === undefined ? undefined : session.calls?.find((c) => c.id === id);
        call?.abort(params?.reason ?? "cancelled by the client");
      }
    }
    if (requests.length === 0) {
      res.writeHead(202).end();
      return;
    }
    if (!sessions.roomForCalls(requests.length)) {
      return sendError(res, 503, -32000, "The MCP endpoint is at its memory budget; try again later.", {
        "retry-after": "30",
      });
    }
    // `handle` resolves once the calls are under way, so that whoever awaits it (the HTTP app's route,
    // its middleware and request objects) lets go while a call waits.
    serve(session, requests, res, acceptsEventStream(req));
  };

  /** Serves the requests of a POST, counted in flight (for the budget and `close`) until all are answered. */
  const serve = (session: Session, requests: JSONRPCRequest[], res: ServerResponse, stream: boolean) => {
    const done = sessions.startCalls(session, requests.length);
    serveRequests(ctx, session, requests, res, { stream, logger }, done);
  };

  /** A request that failed inside: logged, and answered 500 when nothing was sent yet. */
  const failed = (method: string | undefined, res: ServerResponse) => (error: unknown) => {
    logger.error({ err: error, method }, "MCP request failed");
    sendError(res, 500, RPC.internalError, "Internal server error.");
  };

  return {
    get sessions() {
      return sessions.size;
    },
    handle(req, res, parsedBody) {
      return handle(req, res, parsedBody).catch(failed(req.method, res));
    },
    async close() {
      closed = true;
      sessions.close("the MCP endpoint is shutting down");
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, CLOSE_GRACE_MS);
        timer.unref();
      });
      // Calls interrupted by the close finish cancelling their questions first.
      await Promise.race([sessions.noCalls(), grace]);
      clearTimeout(timer);
      await service.close();
    },
  };
}
