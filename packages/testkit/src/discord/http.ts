/** The REST side: reads requests under `/api/v10`, checks the token, records calls, answers like Discord. */
import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError, notFound, unauthorized } from "./errors.ts";
import type { Holds } from "./hold.ts";
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

interface Answer {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

function refused(call: ApiCall, error: unknown): Answer {
  if (!(error instanceof ApiError)) throw error;
  const headers: Record<string, string> = {};
  const body = error.body();
  call.error = body as NonNullable<ApiCall["error"]>;
  if (error.status === 429) {
    headers["retry-after"] = String(error.retryAfter ?? 0);
    headers["x-ratelimit-scope"] = "user";
  }
  return { status: error.status, body, headers };
}

/**
 * The `node:http` request listener of the fake; `gatewayUrl` is what `GET /gateway/bot` hands out. A
 * call of a held route (see {@link Holds}) waits, recorded with status 0, until released or dropped.
 */
export function createRequestHandler(
  state: State,
  gatewayUrl: () => string,
  holds: Holds,
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
    const call: ApiCall = {
      method,
      path: path ?? pathname,
      route: matched?.route.name ?? "unknown",
      body: undefined,
      status: 0,
      at: state.now(),
    };
    const finish = (answer: Answer, recorded: boolean) => {
      call.status = answer.status;
      if (!recorded) state.calls.push(call);
      notify(state);
      send(res, answer.status, answer.body, answer.headers);
    };
    // Carries the call out: a forced failure, or the route's answer.
    const execute = (): Answer => {
      try {
        if (!matched) throw notFound();
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
          body: call.body,
          query: url.searchParams,
          gatewayUrl: gatewayUrl(),
        });
        return { status: result.status, body: result.body, headers: {} };
      } catch (error) {
        return refused(call, error);
      }
    };
    try {
      try {
        call.body = await readBody(req);
      } catch {
        throw new ApiError(400, 50109, "The request body contains invalid JSON.");
      }
      if (!matched) throw notFound();
      if (matched.route.auth && req.headers.authorization !== `Bot ${state.token}`) throw unauthorized();
    } catch (error) {
      finish(refused(call, error), false);
      return;
    }
    if (holds.park(call, res, () => finish(execute(), true))) return;
    finish(execute(), false);
  }

  return (req, res) => {
    handle(req, res).catch((error: unknown) => {
      send(res, 500, { message: `500: ${error instanceof Error ? error.message : String(error)}`, code: 0 });
    });
  };
}
