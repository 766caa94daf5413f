import { Backoff, type RetryOptions, sleep } from "./backoff.ts";
import {
  errorFromNetwork,
  errorFromResponse,
  GatewayError,
  GatewayUnavailableError,
  isRetryable,
} from "./errors.ts";
import { type Connection, headersFor } from "./http.ts";
import { parseSse } from "./sse.ts";
import type { GatewayEvent, PublicQuestion, QuestionEventType } from "./types.ts";

/** Options of `events()`. */
export interface EventsOptions {
  /** Resume after this event id (one an earlier stream gave); otherwise only new events come. */
  lastEventId?: string;
  /** Aborting ends the iteration (quietly: the loop just stops). */
  signal?: AbortSignal;
  /** How reconnects back off while the gateway is unreachable. */
  retry?: RetryOptions;
  /**
   * A stream that sends nothing — not even the gateway's keep-alive, every 15 s — for this long is taken
   * for dead and reopened (default 45 000 ms).
   */
  idleTimeoutMs?: number;
}

const EVENT_TYPES = new Set<string>(["question.requested", "question.updated", "question.resolved"]);
/** The gateway says `retry: 2000`; used until it has. */
const DEFAULT_RECONNECT_MS = 2000;

/**
 * `GET /v1/events` as an async iterator that reconnects by itself: after a dropped connection or a
 * gateway restart it reopens the stream with `Last-Event-ID`, so the events missed meanwhile come
 * next; when the gateway cannot resume (it restarted, another instance) it yields a `reset` item —
 * refetch with `list` — and goes on with new events. A wrong token (401) or path (404) throws.
 */
export async function* streamEvents(
  connection: Connection,
  options: EventsOptions = {},
): AsyncGenerator<GatewayEvent> {
  const outer = options.signal;
  const backoff = new Backoff(options.retry);
  const idleTimeoutMs = options.idleTimeoutMs ?? 45_000;
  let lastEventId = options.lastEventId;
  let reconnectMs = DEFAULT_RECONNECT_MS;
  while (!outer?.aborted) {
    const controller = new AbortController();
    const abort = () => controller.abort(outer?.reason);
    outer?.addEventListener("abort", abort, { once: true });
    let idle: NodeJS.Timeout | undefined;
    const touch = () => {
      clearTimeout(idle);
      idle = setTimeout(() => controller.abort(new Error("idle")), idleTimeoutMs);
    };
    try {
      touch();
      const body = await open(connection, lastEventId, controller.signal);
      backoff.reset();
      for await (const item of parseSse(body, touch)) {
        if (item.kind === "retry") {
          reconnectMs = item.ms;
          continue;
        }
        const event = toEvent(item.message.event, item.message.data, item.message.id);
        if (event === undefined) continue;
        // A reset means the old id is useless: reconnect without one (new events only).
        lastEventId = event.type === "reset" ? undefined : event.id;
        yield event;
      }
      // The gateway ended the stream (it drains, or cut off a slow reader): reopen after its retry time.
      await sleep(reconnectMs, outer);
    } catch (error) {
      if (outer?.aborted) return;
      const failure = controller.signal.aborted
        ? idleError(connection, idleTimeoutMs)
        : asRetryable(connection, error);
      if (!isRetryable(failure)) throw failure;
      try {
        await backoff.pause(failure, outer, reconnectMs);
      } catch (stop) {
        if (outer?.aborted) return;
        throw stop;
      }
    } finally {
      clearTimeout(idle);
      outer?.removeEventListener("abort", abort);
      controller.abort();
    }
  }
}

/** Opens one stream; its body, or the error of the response. */
async function open(connection: Connection, lastEventId: string | undefined, signal: AbortSignal) {
  const headers = headersFor(connection, { accept: "text/event-stream" });
  if (lastEventId !== undefined) headers["last-event-id"] = lastEventId;
  let response: Response;
  try {
    response = await connection.fetch(`${connection.base}/v1/events`, { headers, signal });
  } catch (error) {
    if (signal.aborted) throw error;
    throw errorFromNetwork(connection.base, error);
  }
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => undefined);
    throw errorFromResponse(response.status, body);
  }
  if (!response.body) {
    throw new GatewayUnavailableError("The event stream has no body.", {
      status: response.status,
      reason: "bad_response",
    });
  }
  return response.body;
}

function toEvent(name: string, data: string, id: string | undefined): GatewayEvent | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (name === "reset") {
    const reason = (parsed as { reason?: unknown } | null)?.reason;
    return { type: "reset", reason: typeof reason === "string" ? reason : "the stream cannot resume" };
  }
  const question = (parsed as { question?: PublicQuestion } | null)?.question;
  if (!EVENT_TYPES.has(name) || id === undefined || typeof question !== "object" || question === null)
    return undefined;
  return { type: name as QuestionEventType, id, question };
}

/** A failure while reading: the gateway's own errors as they are, a broken connection as `network`. */
function asRetryable(connection: Connection, error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  return errorFromNetwork(connection.base, error);
}

function idleError(connection: Connection, idleTimeoutMs: number): GatewayUnavailableError {
  return new GatewayUnavailableError(
    `The event stream of ${connection.base} sent nothing for ${Math.round(idleTimeoutMs / 1000)} s.`,
    { status: 0, reason: "timeout" },
  );
}
