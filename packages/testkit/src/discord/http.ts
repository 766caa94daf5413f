/** The REST side: reads requests under `/api/v10`, checks the token, records calls, answers like Discord. */
import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError, notFound, unauthorized } from "./errors.ts";
import { matchRoute } from "./rest.ts";
import { notify, type State } from "./state.ts";
import type { ApiCall } from "./types.ts";

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  if (raw.length === 0) return undefined;
  const type = req.headers["content-type"] ?? "";
  if (type.includes("multipart/form-data")) {
    const form = await new Response(raw, { headers: { "content-type": type } }).formData();
    const json = form.get("payload_json");
    return typeof json === "string" ? JSON.parse(json) : {};
  }
  return JSON.parse(raw.toString("utf8"));
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.destroyed || res.writableEnded) return;
  if (body === undefined) res.writeHead(status, headers).end();
  else res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
}

/** The `node:http` request listener of the fake; `gatewayUrl` is what `GET /gateway/bot` hands out. */
export function createRequestHandler(
  state: State,
  gatewayUrl: () => string,
): (req: IncomingMessage, res: ServerResponse) => void {
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const method = req.method ?? "GET";
    let pathname = url.pathname;
    try {
      pathname = decodeURIComponent(pathname); // discord.js sends "@original" as "%40original"
    } catch {
      // leave it encoded: it will match no route
    }
    const path = pathname.startsWith("/api/v10/") ? pathname.slice("/api/v10".length) : undefined;
    const matched = path === undefined ? undefined : matchRoute(method, path);
    let body: unknown;
    const call: ApiCall = {
      method,
      path: path ?? pathname,
      route: matched?.route.name ?? "unknown",
      body: undefined,
      status: 0,
      at: state.now(),
    };
    let status = 200;
    let answer: unknown;
    const headers: Record<string, string> = {};
    try {
      try {
        body = await readBody(req);
      } catch {
        throw new ApiError(400, 50109, "The request body contains invalid JSON.");
      }
      call.body = body;
      if (!matched) throw notFound();
      if (matched.route.auth && req.headers.authorization !== `Bot ${state.token}`) throw unauthorized();
      const failure = state.failures.get(matched.route.name)?.shift();
      if (failure) {
        throw new ApiError(
          failure.status,
          failure.code ?? 0,
          failure.message ??
            (failure.status === 429 ? "You are being rate limited." : `${failure.status}: Failure`),
          undefined,
          failure.retryAfter,
        );
      }
      const result = matched.route.handle({
        state,
        params: matched.params,
        body,
        query: url.searchParams,
        gatewayUrl: gatewayUrl(),
      });
      status = result.status;
      answer = result.body;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      status = error.status;
      answer = error.body();
      call.error = answer as NonNullable<ApiCall["error"]>;
      if (status === 429) {
        headers["retry-after"] = String(error.retryAfter ?? 0);
        headers["x-ratelimit-scope"] = "user";
      }
    }
    call.status = status;
    state.calls.push(call);
    notify(state);
    send(res, status, answer, headers);
  }

  return (req, res) => {
    handle(req, res).catch((error: unknown) => {
      send(res, 500, { message: `500: ${error instanceof Error ? error.message : String(error)}`, code: 0 });
    });
  };
}
