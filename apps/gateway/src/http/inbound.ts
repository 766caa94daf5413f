import type { IncomingMessage, ServerResponse } from "node:http";
import type { AskUserBroker, InputIssue } from "@ask-user/core";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import type { Context, Hono } from "hono";
import { type GatewayEnv, WEBHOOK_PREFIX, type WebhookHandler } from "./env.ts";
import { HttpError, readObject, sendJson } from "./respond.ts";

/** Handles `/mcp` (Streamable HTTP) through the node bindings; see `createMcpHttpHandler`. */
export interface McpMount {
  handle(req: IncomingMessage, res: ServerResponse, parsedBody?: unknown): Promise<void>;
  close(): Promise<void>;
}

/** Where MCP is served. */
export const MCP_PATH = "/mcp";

/**
 * `/mcp` (GET, POST, DELETE — the methods of Streamable HTTP): the MCP SDK's node transport on the raw request and response (`c.env.incoming` / `outgoing`).
 * The app's middleware already checked Host, Origin, token, type and size and read the body, so the
 * transport gets it parsed; a body that is not JSON is a JSON-RPC parse error, as MCP clients expect.
 */
export function mountMcp(app: Hono<GatewayEnv>, mcp: McpMount | undefined): void {
  app.on(["GET", "POST", "DELETE"], MCP_PATH, async (c) => {
    if (!mcp) throw new HttpError(404, "not_found", "MCP is not enabled on this gateway.");
    let parsed: unknown;
    if (c.req.method === "POST") {
      try {
        parsed = JSON.parse(new TextDecoder().decode(c.get("body")));
      } catch {
        const error = { code: -32700, message: "Parse error: the body is not JSON." };
        return sendJson(c, 400, { jsonrpc: "2.0", error, id: null });
      }
    }
    await mcp.handle(c.env.incoming, c.env.outgoing, parsed);
    return RESPONSE_ALREADY_SENT;
  });
}

/**
 * The chat platforms' inbound webhooks: `/channels/<name>` and everything under it goes to that
 * channel's handler as a web-standard `Request` (its URL, method and headers as sent, its body as
 * read — within the size limit, any content type) and its `Response` is sent back as it is. These
 * routes are outside the Host check and the bearer token: each handler authenticates its platform
 * (Telegram's secret token header, Slack's signature and timestamp). The Origin check still applies.
 */
export function mountWebhooks(app: Hono<GatewayEnv>, webhooks: ReadonlyMap<string, WebhookHandler>): void {
  const forward = async (c: Context<GatewayEnv>) => {
    const name = c.req.path.slice(WEBHOOK_PREFIX.length).split("/")[0] ?? "";
    const handler = webhooks.get(name);
    if (!handler) {
      const running = [...webhooks.keys()].join(", ") || "none";
      throw new HttpError(
        404,
        "not_found",
        `No webhook for a channel named "${name}" (mounted: ${running}).`,
      );
    }
    const method = c.req.method;
    const init: RequestInit = { method, headers: c.req.raw.headers, signal: c.req.raw.signal };
    if (method !== "GET" && method !== "HEAD") init.body = c.get("body");
    return handler(new Request(c.req.url, init));
  };
  app.all(`${WEBHOOK_PREFIX}:name`, forward);
  app.all(`${WEBHOOK_PREFIX}:name/*`, forward);
}

/** Which channels take replies at `POST /v1/channels/<name>/inbound`, and how to turn on the others. */
export interface ReplyInbound {
  /** Every running channel. */
  running: ReadonlySet<string>;
  /** Running channels whose replies come through this route (the text webhook). */
  channels: ReadonlySet<string>;
  /** Channels that are off, by name: what turns them on (`set ASK_USER_TEXT_WEBHOOK_URL`). */
  turnOn: ReadonlyMap<string, string>;
}

/** The 404 for a channel that takes no replies here, saying why. */
function noReplies(name: string, inbound: ReplyInbound): HttpError {
  const hint = inbound.turnOn.get(name);
  let message = `No channel named "${name}" is running (running: ${[...inbound.running].join(", ") || "none"}).`;
  if (hint !== undefined) message = `The ${name} channel is off: ${hint} to turn it on.`;
  else if (inbound.running.has(name))
    message = `The ${name} channel gets its replies from its platform, not here.`;
  return new HttpError(404, "not_found", message);
}

/**
 * `POST /v1/channels/<name>/inbound`: a user's message on a channel whose replies come through the
 * gateway (the text webhook: `/v1/channels/text/inbound`), answered with the outcome.
 */
export function mountReplyInbound(app: Hono<GatewayEnv>, broker: AskUserBroker, inbound: ReplyInbound): void {
  app.post("/v1/channels/:name/inbound", async (c) => {
    const name = c.req.param("name");
    if (!inbound.channels.has(name)) throw noReplies(name, inbound);
    const body = readObject(c);
    const issues: InputIssue[] = [];
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
    const outcome = await broker.handleReply({
      channel: name,
      conversation: body.conversation as string,
      userId: body.userId as string,
      text: body.text as string,
      ...(typeof body.replyTo === "string" ? { replyTo: body.replyTo } : {}),
      ...(typeof body.messageId === "string" ? { messageId: body.messageId } : {}),
      ...(typeof body.displayName === "string" ? { displayName: body.displayName } : {}),
      ...(typeof body.locale === "string" ? { locale: body.locale } : {}),
    });
    return sendJson(c, 200, {
      outcome: outcome.kind,
      ...("text" in outcome ? { text: outcome.text } : {}),
      ...("record" in outcome && outcome.record ? { questionId: outcome.record.id } : {}),
    });
  });
}
