/**
 * Handing requests to the app: over an open Socket Mode connection when there is one, else as signed
 * HTTP POSTs to the request URL (Bolt's `/slack/events`). Every delivery is recorded with its timing.
 */
import { DELIVERY_TIMEOUT_MS } from "./limits.ts";
import { signedHeaders } from "./signer.ts";
import { nextId, notify, type State } from "./state.ts";
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

/** POSTs a body to the request URL, signed; events as JSON, interactivity as `payload=<json>`. */
export async function deliverHttp(
  state: State,
  body: Record<string, unknown>,
  options: HttpDeliveryOptions = {},
): Promise<Delivery> {
  const url = state.requestUrl;
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
  const started = performance.now();
  const delivery: Delivery = { via: "http", type, request: body, status: 0, body: null, ms: 0 };
  try {
    const response = await fetch(url, {
      method: "POST",
      headers,
      body: raw,
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    delivery.status = response.status;
    delivery.body = parseAnswer(await response.text());
  } catch (error) {
    delivery.error = error instanceof Error ? error.message : String(error);
  }
  delivery.ms = Math.round(performance.now() - started);
  state.deliveries.push(delivery);
  notify(state);
  return delivery;
}

/** Hands a body to the app: Socket Mode when connected, else HTTP. */
export function deliver(state: State, body: Record<string, unknown>): Promise<Delivery> {
  const socket = state.socket;
  if (socket?.isOpen()) {
    return socket.send(typeOf(body) === "event_callback" ? "events_api" : "interactive", body);
  }
  return deliverHttp(state, body);
}

/** Delivers without waiting (the app's own messages echoed back); failures stay in `deliveries`. */
export function deliverInBackground(state: State, body: Record<string, unknown>): void {
  if (state.closed || (!state.socket?.isOpen() && !state.requestUrl)) return;
  deliver(state, body).catch(() => undefined);
}
