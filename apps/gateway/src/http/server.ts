import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AskUserBroker, Target } from "@ask-user/core";
import type { Logger } from "pino";
import { EventStream } from "./events.ts";
import {
  answerQuestion,
  askAndWait,
  cancelQuestion,
  createQuestion,
  getQuestion,
  listQuestions,
  type QuestionRoutesContext,
  skipQuestion,
} from "./questions.ts";
import { authenticate, HttpError, readObject, sendError, sendJson } from "./respond.ts";
import { createStaticSite, isStaticPath } from "./static.ts";

/** Handles `/mcp` (Streamable HTTP), mounted by the gateway. */
export interface McpMount {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  close(): Promise<void>;
}

/** What the HTTP server serves. */
export interface HttpServerOptions {
  broker: AskUserBroker;
  token: string | undefined;
  defaultTarget: Target | undefined;
  channels: ReadonlySet<string>;
  logger: Logger;
  mcp?: McpMount;
  /** Present when the text channel runs: `POST /v1/channels/text/inbound`. */
  textInbound?: boolean;
  /**
   * Host names the gateway answers to (DNS-rebinding guard for a gateway without a token: a web page
   * whose name re-resolves to 127.0.0.1 still sends its own name in `Host`). Undefined: no check.
   */
  allowedHosts?: ReadonlySet<string>;
  /** The built web panel served at `/` (default: `@ask-user/web`'s `dist` folder). */
  webRoot?: string;
}

/** The running HTTP server, with a draining close. */
export interface HttpServer {
  server: Server;
  events: EventStream;
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse, url: URL, params: string[]) => Promise<void>;

const ID = "([A-Za-z0-9_-]{1,64})";

/**
 * Creates the gateway's HTTP server: JSON API under /v1 (bearer-token auth when a token is set), SSE,
 * the MCP endpoint, `/healthz` and the web panel at `/` (its static files need no token). Every failure
 * is a JSON error body; a crash in a handler is logged once and answered with 500.
 */
export function createHttpServer(options: HttpServerOptions): HttpServer {
  const ctx: QuestionRoutesContext = {
    broker: options.broker,
    defaultTarget: options.defaultTarget,
    channels: options.channels,
  };
  const events = new EventStream(options.broker);
  const web = createStaticSite(options.webRoot);
  let draining = false;

  const routes: Array<[string, RegExp, Handler]> = [
    ["GET", /^\/healthz$/, async (_req, res) => sendJson(res, 200, { ok: true, draining })],
    ["GET", /^\/$/, (req, res) => web.index(req, res)],
    ["GET", /^\/assets\/(.+)$/, (req, res, _u, [file]) => web.asset(req, res, file ?? "")],
    ["POST", /^\/v1\/questions$/, (req, res) => createQuestion(ctx, req, res)],
    ["GET", /^\/v1\/questions$/, (req, res, url) => listQuestions(ctx, req, res, url)],
    [
      "GET",
      new RegExp(`^/v1/questions/${ID}$`),
      (req, res, url, [id]) => getQuestion(ctx, req, res, url, id ?? ""),
    ],
    [
      "POST",
      new RegExp(`^/v1/questions/${ID}/answer$`),
      (req, res, _u, [id]) => answerQuestion(ctx, req, res, id ?? ""),
    ],
    [
      "POST",
      new RegExp(`^/v1/questions/${ID}/skip$`),
      (req, res, _u, [id]) => skipQuestion(ctx, req, res, id ?? ""),
    ],
    [
      "DELETE",
      new RegExp(`^/v1/questions/${ID}$`),
      (req, res, _u, [id]) => cancelQuestion(ctx, req, res, id ?? ""),
    ],
    ["POST", /^\/v1\/ask$/, (req, res) => askAndWait(ctx, req, res)],
    ["GET", /^\/v1\/events$/, async (req, res, url) => events.serve(req, res, url)],
    ["POST", /^\/v1\/channels\/text\/inbound$/, (req, res) => textInbound(options, req, res)],
  ];
  const open = new Set(["/healthz", "/"]);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://gateway.local");
    const path = url.pathname;
    if (options.allowedHosts) checkHost(req, options.allowedHosts);
    if (!open.has(path) && !isStaticPath(path)) authenticate(req, url, options.token);
    if (path === "/mcp") {
      if (!options.mcp) throw new HttpError(404, "not_found", "MCP is not enabled on this gateway.");
      return options.mcp.handle(req, res);
    }
    if (draining && req.method !== "GET") {
      throw new HttpError(503, "shutting_down", "The gateway is shutting down; try again in a moment.");
    }
    let pathKnown = false;
    for (const [method, pattern, handler] of routes) {
      const match = pattern.exec(path);
      if (!match) continue;
      pathKnown = true;
      if (method === req.method) return handler(req, res, url, match.slice(1));
    }
    if (pathKnown) throw new HttpError(405, "method_not_allowed", `${req.method} is not allowed on ${path}.`);
    throw new HttpError(404, "not_found", `No route ${req.method} ${path}. The API lives under /v1.`);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (error instanceof HttpError) return sendError(res, error);
      if (error instanceof Error && "code" in error && error.code === "closed") {
        return sendError(
          res,
          new HttpError(503, "shutting_down", "The gateway is shutting down; the question stays pending."),
        );
      }
      options.logger.error(
        { err: error, method: req.method, path: req.url?.split("?")[0] },
        "request failed",
      );
      sendError(res, new HttpError(500, "internal", "Something went wrong on the gateway; it was logged."));
    });
  });
  server.keepAliveTimeout = 5_000;

  return {
    server,
    events,
    async close() {
      draining = true;
      events.close();
      await options.mcp?.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 2_000).unref();
      });
    },
  };
}

async function textInbound(
  options: HttpServerOptions,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  if (!options.textInbound) {
    throw new HttpError(
      404,
      "not_found",
      "The text channel is off: set ASK_USER_TEXT_WEBHOOK_URL to turn it on.",
    );
  }
  const body = await readObject(req);
  const issues: Array<{ path: string; message: string }> = [];
  for (const key of ["conversation", "userId", "text"]) {
    if (typeof body[key] !== "string" || (key !== "text" && body[key] === "")) {
      issues.push({ path: key, message: `${key} is required and must be a string.` });
    }
  }
  for (const key of ["replyTo", "messageId", "displayName", "locale"]) {
    if (body[key] !== undefined && typeof body[key] !== "string") {
      issues.push({ path: key, message: `${key} must be a string.` });
    }
  }
  if (issues.length > 0)
    throw new HttpError(422, "invalid_input", "The message has problems; see issues.", issues);
  const event = {
    channel: "text",
    conversation: body.conversation as string,
    userId: body.userId as string,
    text: body.text as string,
    ...(typeof body.replyTo === "string" ? { replyTo: body.replyTo } : {}),
    ...(typeof body.messageId === "string" ? { messageId: body.messageId } : {}),
    ...(typeof body.displayName === "string" ? { displayName: body.displayName } : {}),
    ...(typeof body.locale === "string" ? { locale: body.locale } : {}),
  };
  const outcome = await options.broker.handleReply(event);
  sendJson(res, 200, {
    outcome: outcome.kind,
    ...("text" in outcome ? { text: outcome.text } : {}),
    ...("record" in outcome && outcome.record ? { questionId: outcome.record.id } : {}),
  });
}

/** Refuses requests whose `Host` names another site (see `allowedHosts`). */
function checkHost(req: IncomingMessage, allowed: ReadonlySet<string>): void {
  let hostname: string | undefined;
  try {
    hostname = req.headers.host ? new URL(`http://${req.headers.host}`).hostname.toLowerCase() : undefined;
  } catch {
    hostname = undefined;
  }
  if (hostname !== undefined && allowed.has(hostname)) return;
  throw new HttpError(
    403,
    "forbidden_host",
    `This gateway answers to ${[...allowed].join(", ")}, not "${req.headers.host ?? ""}" (a guard against DNS rebinding). ` +
      "Set ASK_USER_TOKEN, or add the name to ASK_USER_ALLOWED_HOSTS.",
  );
}
