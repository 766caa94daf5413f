/**
 * Handing requests to the app: over an open Socket Mode connection when there is one, else as signed
 * HTTP POSTs to the request URL (Bolt's `/slack/events`). Every delivery is recorded with its timing.
 */
import { ACK_DEADLINE_MS, DELIVERY_TIMEOUT_MS } from "./limits.ts";
import { signedHeaders } from "./signer.ts";
import { nextId, notify, type Retry, type Route, type State } from "./state.ts";
import type { Delivery } from "./types.ts";

/** Options of a raw HTTP delivery, to test what Bolt refuses. */
export interface HttpDeliveryOptions {
  /** Sign with this secret instead of the app's. */
  signingSecret?: string;
  /** The `x-slack-request-timestamp`, epoch seconds (default now). */
  timestampSec?: number;
  /** Send this `x-slack-signature` as is. */
  signature?: string;
  /** Send this content type instead of the right one. */
  contentType?: string;
}

/** The `type` of a body: `event_callback`, `block_actions`, `view_submission`, `url_verification`, … */
function typeOf(body: Record<string, unknown>): string {
  return typeof body.type === "string" ? body.type : "unknown";
}

/** Wraps an event as the Events API does (`event_callback`). */
export function eventCallback(state: State, event: Record<string, unknown>): Record<string, unknown> {
  return {
    token: "fake-verification-token",
    team_id: state.team.id,
    api_app_id: state.app.appId,
    event,
    type: "event_callback",
    event_id: nextId(state, "Ev"),
    event_time: Math.floor(state.now() / 1000),
    authorizations: [
      {
        enterprise_id: null,
        team_id: state.team.id,
        user_id: state.app.botUserId,
        is_bot: true,
        is_enterprise_install: false,
      },
    ],
    is_ext_shared_channel: false,
  };
}

function parseAnswer(text: string): unknown {
  if (text === "") return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The request URL for the next request: with several (instances behind a load balancer) each in turn,
 * and a redelivery to another one than the attempt before.
 */
function nextUrl(state: State, avoid?: string): string | undefined {
  const urls = state.requestUrls;
  const elsewhere = urls.length > 1 ? urls.filter((url) => url !== avoid) : urls;
  if (elsewhere.length === 0) return undefined;
  state.urlTurn += 1;
  return elsewhere[state.urlTurn % elsewhere.length];
}

/** POSTs a body to the request URL, signed; events as JSON, interactivity as `payload=<json>`. */
export async function deliverHttp(
  state: State,
  body: Record<string, unknown>,
  options: HttpDeliveryOptions = {},
  retry?: Retry,
  route?: Route,
): Promise<Delivery> {
  const url = nextUrl(state, retry?.previous?.url);
  if (route && url) route.url = url;
  if (!url)
    throw new Error("fake Slack: no request URL set (call setRequestUrl) and no Socket Mode connection");
  const type = typeOf(body);
  const json = type === "event_callback" || type === "url_verification";
  const raw = json ? JSON.stringify(body) : `payload=${encodeURIComponent(JSON.stringify(body))}`;
  const timestampSec = options.timestampSec ?? Math.floor(state.now() / 1000);
  const headers = signedHeaders(
    options.signingSecret ?? state.app.signingSecret,
    timestampSec,
    raw,
    json ? "json" : "form",
  );
  if (options.signature !== undefined) headers["x-slack-signature"] = options.signature;
  if (options.contentType !== undefined) headers["content-type"] = options.contentType;
  if (retry) {
    headers["x-slack-retry-num"] = String(retry.num);
    headers["x-slack-retry-reason"] = retry.reason;
  }
  const started = performance.now();
  const delivery: Delivery = { via: "http", type, request: body, status: 0, body: null, ms: 0, url };
  if (retry) Object.assign(delivery, { retryNum: retry.num, retryReason: retry.reason });
  try {
    const response = await fetch(url, {
      method: "POST",
      headers,
      body: raw,
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    delivery.status = response.status;
    delivery.body = parseAnswer(await response.text());
    if (state.lostAcks > 0) {
      state.lostAcks -= 1;
      delivery.lost = true;
    }
  } catch (error) {
    delivery.error = error instanceof Error ? error.message : String(error);
  }
  delivery.ms = Math.round(performance.now() - started);
  state.deliveries.push(delivery);
  notify(state);
  return delivery;
}

/**
 * Hands a body to the app once: Socket Mode when connected, else HTTP. Where it went is written to
 * `route` at once (a redelivery goes elsewhere when it can).
 */
export function deliver(
  state: State,
  body: Record<string, unknown>,
  retry?: Retry,
  route?: Route,
): Promise<Delivery> {
  const socket = state.socket;
  if (socket?.isOpen()) {
    const type = typeOf(body) === "event_callback" ? "events_api" : "interactive";
    return socket.send(type, body, retry, route);
  }
  return deliverHttp(state, body, {}, retry, route);
}

function reachable(state: State): boolean {
  return !state.closed && (state.socket?.isOpen() === true || state.requestUrls.length > 0);
}

/** Slack's name for why a delivery failed (`X-Slack-Retry-Reason`; Socket Mode says `timeout`). */
function failureReason(delivery: Delivery | undefined, socket: boolean): string {
  if (socket || delivery?.via === "socket") return "timeout";
  if (!delivery || delivery.ms > ACK_DEADLINE_MS || delivery.lost) return "http_timeout";
  return delivery.status === 0 ? "connection_failed" : "http_error";
}

/**
 * Delivers an Events API body as Slack does: when the app has not acknowledged it with a 200 within
 * 3 s (or failed, or the answer was lost), it is delivered again — to another instance or connection
 * when there is one — with the same `event_id`, `X-Slack-Retry-Num` (HTTP) or
 * `retry_attempt` (Socket Mode) counting up, after each of `state.eventRetryDelaysMs`. Resolves with
 * the first attempt; redeliveries are recorded in `deliveries`.
 */
export function deliverEvent(state: State, body: Record<string, unknown>, retry?: Retry): Promise<Delivery> {
  const num = retry?.num ?? 0;
  const route: Route = {};
  let retried = false;
  const retryLater = (reason: string) => {
    const delay = state.eventRetryDelaysMs[num];
    if (retried || delay === undefined || state.closed) return;
    retried = true;
    const timer = setTimeout(() => {
      state.timers.delete(timer);
      const next: Retry = { num: num + 1, reason, previous: route };
      if (reachable(state)) deliverEvent(state, body, next).catch(() => undefined);
    }, delay);
    timer.unref();
    state.timers.add(timer);
  };
  const socket = state.socket?.isOpen() === true;
  const deadline = setTimeout(() => retryLater(failureReason(undefined, socket)), ACK_DEADLINE_MS);
  deadline.unref();
  state.timers.add(deadline);
  const done = () => {
    clearTimeout(deadline);
    state.timers.delete(deadline);
  };
  return deliver(state, body, retry, route).then(
    (delivery) => {
      done();
      if (delivery.status !== 200 || delivery.ms > ACK_DEADLINE_MS || delivery.lost)
        retryLater(failureReason(delivery, socket));
      return delivery;
    },
    (error: unknown) => {
      done();
      throw error;
    },
  );
}

/** Delivers an event without waiting (the app's own messages echoed back); failures stay in `deliveries`. */
export function deliverInBackground(state: State, body: Record<string, unknown>): void {
  if (!reachable(state)) return;
  deliverEvent(state, body).catch(() => undefined);
}
