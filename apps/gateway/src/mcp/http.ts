import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { consoleLogger } from "@ask-user/core";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest, isJSONRPCRequest } from "@modelcontextprotocol/sdk/types.js";
import { createMcpServer, type McpServerOptions } from "./server.ts";

/** Options of {@link createMcpHttpHandler}: the server's options plus the session bound. */
export interface McpHttpHandlerOptions extends McpServerOptions {
  /**
   * Open sessions kept at most; a new session beyond it closes the least recently used idle one (never
   * one with a call in flight). Default 100.
   */
  maxSessions?: number;
  /** A session with nothing in flight and no request for this long is closed. Default 30 minutes. */
  idleSessionMs?: number;
  /** Largest POST body read when none is given to `handle`. Default 4 MiB (the SDK's bound). */
  maxBodyBytes?: number;
  /**
   * The SDK transport's own DNS-rebinding protection, read when a session opens (the gateway knows its
   * port only once it listens): the exact `Host` values and `Origin`s it accepts. Undefined: none
   * (the gateway's middleware checks Host and Origin for every route anyway).
   */
  transportSecurity?: () => McpTransportSecurity | undefined;
}

/** `allowedHosts` / `allowedOrigins` of the SDK's Streamable HTTP transport (exact header values). */
export interface McpTransportSecurity {
  allowedHosts?: string[];
  allowedOrigins?: string[];
}

/** The gateway's `/mcp` route. */
export interface McpHttpHandler {
  /** Serves one request (POST, GET or DELETE); `parsedBody` is the JSON body when already read. */
  handle(req: IncomingMessage, res: ServerResponse, parsedBody?: unknown): Promise<void>;
  /** Closes every session: calls still waiting are cancelled, with their questions. */
  close(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  /** Calls of this session whose response is still open (an `ask_user` call waiting for a human). */
  open: number;
  /** When the session last had a request or finished one (epoch ms). */
  lastSeen: number;
}

const DEFAULT_MAX_SESSIONS = 100;
const DEFAULT_IDLE_SESSION_MS = 30 * 60_000;
const IDLE_SWEEP_MS = 60_000;
const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * MCP over Streamable HTTP, stateful: `initialize` opens a session (`mcp-session-id`), each with its own
 * server, so progress notifications and cancellations reach the call they belong to. Sessions end on
 * DELETE, on `close()`, after `idleSessionMs` with nothing in flight, or when evicted as the least
 * recently used idle session to make room; a session with a call in flight is never evicted (a new
 * session is refused with 503 instead). The caller authenticates requests.
 *
 * @example
 * const mcp = createMcpHttpHandler({ backend });
 * http.createServer((req, res) => {
 *   if (new URL(req.url ?? "/", "http://x").pathname === "/mcp" && authorized(req)) void mcp.handle(req, res);
 * });
 */
export function createMcpHttpHandler(options: McpHttpHandlerOptions): McpHttpHandler {
  const {
    maxSessions = DEFAULT_MAX_SESSIONS,
    maxBodyBytes = DEFAULT_MAX_BODY_BYTES,
    idleSessionMs = DEFAULT_IDLE_SESSION_MS,
    transportSecurity,
    ...serverOptions
  } = options;
  const logger = serverOptions.logger ?? consoleLogger;
  /** Open sessions, least recently used first. */
  const sessions = new Map<string, Session>();
  let closed = false;

  const closeSession = async (id: string, session: Session) => {
    sessions.delete(id);
    try {
      await session.server.close();
    } catch (error) {
      logger.warn({ err: error, sessionId: id }, "MCP session did not close cleanly");
    }
  };

  /** Counts a call (a POST carrying requests) as in flight until its response ends. */
  const track = (session: Session, res: ServerResponse, body: unknown) => {
    session.lastSeen = Date.now();
    const messages = Array.isArray(body) ? body : [body];
    if (!messages.some((message) => isJSONRPCRequest(message))) return;
    session.open++;
    res.once("close", () => {
      session.open--;
      session.lastSeen = Date.now();
    });
  };

  const sweep = setInterval(
    () => {
      const before = Date.now() - idleSessionMs;
      for (const [id, session] of sessions) {
        if (session.open === 0 && session.lastSeen < before) void closeSession(id, session);
      }
    },
    Math.min(IDLE_SWEEP_MS, idleSessionMs),
  );
  sweep.unref();

  /** Makes room for one more session: closes idle ones, least recently used first. */
  const makeRoom = async (): Promise<boolean> => {
    for (const [id, session] of sessions) {
      if (sessions.size < maxSessions) break;
      if (session.open === 0) await closeSession(id, session);
    }
    return sessions.size < maxSessions;
  };

  const open = async (req: IncomingMessage, res: ServerResponse, body: unknown) => {
    if (!(await makeRoom())) {
      res.setHeader("Retry-After", "30");
      return sendError(res, 503, -32000, `Too many MCP sessions with calls in flight (${maxSessions}).`);
    }
    const server = createMcpServer(serverOptions);
    const security = transportSecurity?.();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      ...(security ? { enableDnsRebindingProtection: true, ...security } : {}),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server, open: 0, lastSeen: Date.now() });
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
      },
    });
    server.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
    // A refused initialize (bad version, malformed) leaves a server that no session refers to.
    if (transport.sessionId === undefined || !sessions.has(transport.sessionId)) await server.close();
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown) => {
    if (closed) return sendError(res, 503, -32000, "The MCP endpoint is shutting down.");
    const header = req.headers["mcp-session-id"];
    const sessionId = Array.isArray(header) ? header[0] : header;
    const session = sessionId === undefined ? undefined : sessions.get(sessionId);
    if (sessionId !== undefined && !session) {
      return sendError(res, 404, -32001, "Session not found; initialize a new session.");
    }
    if (req.method !== "POST" && !session) {
      if (req.method === "GET" || req.method === "DELETE") {
        return sendError(res, 400, -32000, "Bad Request: the mcp-session-id header is missing.");
      }
      res.setHeader("Allow", "GET, POST, DELETE");
      return sendError(res, 405, -32000, "Method not allowed.");
    }
    let body = parsedBody;
    if (req.method === "POST" && body === undefined) {
      const read = await readJson(req, maxBodyBytes);
      if (!read.ok) return sendError(res, read.status, read.code, read.message);
      body = read.value;
    }
    if (sessionId !== undefined && session) {
      sessions.delete(sessionId);
      sessions.set(sessionId, session);
      track(session, res, body);
      cancelOnDisconnect(session.transport, res, body);
      return session.transport.handleRequest(req, res, body);
    }
    const initialize = Array.isArray(body)
      ? body.some((m) => isInitializeRequest(m))
      : isInitializeRequest(body);
    if (!initialize)
      return sendError(res, 400, -32000, "Bad Request: no valid session id; initialize first.");
    return open(req, res, body);
  };

  return {
    async handle(req, res, parsedBody) {
      try {
        await handle(req, res, parsedBody);
      } catch (error) {
        logger.error({ err: error, method: req.method }, "MCP request failed");
        if (!res.headersSent) sendError(res, 500, -32603, "Internal server error.");
        else res.end();
      }
    },
    async close() {
      closed = true;
      clearInterval(sweep);
      await Promise.all([...sessions].map(([id, session]) => closeSession(id, session)));
    },
  };
}

/**
 * Without an event store a response stream that closes early can never be resumed, so the calls it
 * carried are cancelled like an MCP cancellation (their questions end as cancelled), not left waiting.
 */
function cancelOnDisconnect(
  transport: StreamableHTTPServerTransport,
  res: ServerResponse,
  body: unknown,
): void {
  const messages = Array.isArray(body) ? body : [body];
  const requestIds = messages.filter(isJSONRPCRequest).map((message) => message.id);
  if (requestIds.length === 0) return;
  res.once("close", () => {
    if (res.writableFinished) return;
    for (const requestId of requestIds) {
      const reason = "the HTTP response stream closed";
      transport.onmessage?.({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId, reason },
      });
    }
  });
}

type ReadResult = { ok: true; value: unknown } | { ok: false; status: number; code: number; message: string };

async function readJson(req: IncomingMessage, maxBytes: number): Promise<ReadResult> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > maxBytes) return { ok: false, status: 413, code: -32000, message: "Request body too large." };
    chunks.push(buffer);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString("utf8")) };
  } catch {
    return { ok: false, status: 400, code: -32700, message: "Parse error: the body is not JSON." };
  }
}

function sendError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}
