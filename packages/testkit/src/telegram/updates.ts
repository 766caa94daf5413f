/** Getting updates to the bot: `getUpdates` long polling, or a webhook the fake POSTs to. */
import { STATUS_CODES } from "node:http";
import {
  GET_UPDATES_LIMIT_MAX,
  LONG_POLL_HOLD_MAX_MS,
  WEBHOOK_DELIVERY_ATTEMPTS,
  WEBHOOK_REQUEST_TIMEOUT_MS,
  WEBHOOK_RETRY_DELAY_MS,
  WEBHOOK_SECRET_TOKEN_MAX_CHARS,
  WEBHOOK_SECRET_TOKEN_PATTERN,
} from "./limits.ts";
import { ApiError, badRequest, isObject, optBool, optInt, optJson, optStr, type Params } from "./params.ts";
import { nextChange, notify, type State, type Webhook } from "./state.ts";
import type { TgUpdate } from "./types.ts";

/** A boolean result that the Bot API sends with a `description` ("Webhook was set"). */
export class Described {
  constructor(
    readonly result: unknown,
    readonly description: string,
  ) {}
}

const WEBHOOK_CONFLICT =
  "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first";
const POLL_CONFLICT =
  "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running";
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

function setAllowedUpdates(state: State, params: Params): void {
  const allowed = optJson(params, "allowed_updates", "allowed_updates JSON array");
  if (Array.isArray(allowed)) state.allowedUpdates = allowed.filter((type) => typeof type === "string");
}

function dropPending(state: State, params: Params): void {
  if (optBool(params, "drop_pending_updates") === true) {
    state.queue = [];
    state.redeliveries = [];
  }
}

/** `getUpdates`: confirms updates below `offset`, then returns (or waits for, ≤ 1 s) the rest. */
export async function getUpdates(state: State, params: Params, signal: AbortSignal): Promise<TgUpdate[]> {
  if (state.webhook) throw new ApiError(409, WEBHOOK_CONFLICT);
  const offset = optInt(params, "offset") ?? 0;
  const limit = Math.min(
    Math.max(optInt(params, "limit") ?? GET_UPDATES_LIMIT_MAX, 1),
    GET_UPDATES_LIMIT_MAX,
  );
  const timeoutS = Math.max(optInt(params, "timeout") ?? 0, 0);
  setAllowedUpdates(state, params);
  if (offset > 0) state.queue = state.queue.filter((update) => update.update_id >= offset);
  if (offset < 0) state.queue = state.queue.slice(offset);
  const generation = ++state.pollGeneration;
  notify(state);
  const deadline = Date.now() + Math.min(timeoutS * 1000, LONG_POLL_HOLD_MAX_MS);
  for (;;) {
    if (generation !== state.pollGeneration) throw new ApiError(409, POLL_CONFLICT);
    if (state.closed || signal.aborted || state.webhook) return [];
    if (state.redeliveries.length > 0 || state.queue.length > 0) {
      const again = state.redeliveries.splice(0, limit);
      return [...again, ...state.queue.slice(0, limit - again.length)];
    }
    const left = deadline - Date.now();
    if (left <= 0) return [];
    await nextChange(state, left, signal);
  }
}

/** `setWebhook`: only loopback URLs (the fake never calls out); `secret_token` per the Bot API limits. */
export function setWebhook(state: State, params: Params): Described {
  const url = optStr(params, "url") ?? "";
  if (url === "") return deleteWebhook(state, params);
  if (!URL.canParse(url)) throw badRequest("invalid webhook URL specified");
  const parsed = new URL(url);
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw badRequest("bad webhook: An HTTPS URL must be provided for webhook");
  }
  if (!LOOPBACK_HOSTS.has(parsed.hostname)) {
    throw badRequest("bad webhook: Failed to resolve host: Name or service not known");
  }
  const secret = optStr(params, "secret_token");
  if (secret !== undefined && secret !== "") {
    if (secret.length > WEBHOOK_SECRET_TOKEN_MAX_CHARS) throw badRequest("secret token is too long");
    if (!WEBHOOK_SECRET_TOKEN_PATTERN.test(secret))
      throw badRequest("secret token contains unallowed characters");
  }
  const maxConnections = optInt(params, "max_connections") ?? 40;
  if (maxConnections < 1 || maxConnections > 100) throw badRequest("invalid max_connections specified");
  const same = state.webhook?.url === url && state.webhook.secretToken === (secret || undefined);
  const webhook: Webhook = { url, maxConnections };
  if (secret !== undefined && secret !== "") webhook.secretToken = secret;
  state.webhook = webhook;
  dropPending(state, params);
  setAllowedUpdates(state, params);
  notify(state);
  return new Described(true, same ? "Webhook is already set" : "Webhook was set");
}

/** `deleteWebhook` (also `setWebhook` with an empty URL). */
export function deleteWebhook(state: State, params: Params): Described {
  const had = state.webhook !== undefined;
  state.webhook = undefined;
  dropPending(state, params);
  notify(state);
  return new Described(true, had ? "Webhook was deleted" : "Webhook is already deleted");
}

/** `getWebhookInfo`. */
export function getWebhookInfo(state: State): Record<string, unknown> {
  const webhook = state.webhook;
  const info: Record<string, unknown> = {
    url: webhook?.url ?? "",
    has_custom_certificate: false,
    pending_update_count: state.queue.length,
  };
  if (webhook) {
    info.max_connections = webhook.maxConnections;
    info.ip_address = "127.0.0.1";
    if (webhook.lastErrorDate !== undefined) info.last_error_date = webhook.lastErrorDate;
    if (webhook.lastErrorMessage !== undefined) info.last_error_message = webhook.lastErrorMessage;
    if (state.allowedUpdates.length > 0) info.allowed_updates = [...state.allowedUpdates];
  }
  return info;
}

/** Runs a Bot API method on behalf of a webhook reply (`{ method, ...params }` in the response body). */
export type Invoke = (method: string, params: Params) => Promise<unknown>;

type Outcome = "delivered" | "failed" | "abandoned";

function parseReply(body: string): unknown {
  try {
    return body.trim() === "" ? undefined : JSON.parse(body);
  } catch {
    return undefined;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function postOnce(webhook: Webhook, update: TgUpdate, stop: AbortSignal): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (webhook.secretToken !== undefined) headers["x-telegram-bot-api-secret-token"] = webhook.secretToken;
  return fetch(webhook.url, {
    method: "POST",
    headers,
    body: JSON.stringify(update),
    signal: AbortSignal.any([stop, AbortSignal.timeout(WEBHOOK_REQUEST_TIMEOUT_MS)]),
  });
}

async function deliver(state: State, webhook: Webhook, update: TgUpdate, stop: AbortSignal, invoke: Invoke) {
  for (let attempt = 1; attempt <= WEBHOOK_DELIVERY_ATTEMPTS; attempt++) {
    let error: string;
    try {
      const response = await postOnce(webhook, update, stop);
      const body = await response.text();
      state.deliveries.push({
        update_id: update.update_id,
        attempt,
        status: response.status,
        at: state.now(),
      });
      if (response.ok) {
        const reply = parseReply(body);
        if (isObject(reply) && typeof reply.method === "string") {
          const { method, ...params } = reply;
          await invoke(method, params).catch(() => undefined);
        }
        notify(state);
        return "delivered" as Outcome;
      }
      error =
        `Wrong response from the webhook: ${response.status} ${STATUS_CODES[response.status] ?? ""}`.trim();
    } catch (thrown) {
      if (stop.aborted) return "abandoned" as Outcome;
      error = thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown);
      state.deliveries.push({ update_id: update.update_id, attempt, status: 0, error, at: state.now() });
    }
    webhook.lastErrorDate = Math.floor(state.now() / 1000);
    webhook.lastErrorMessage = error;
    notify(state);
    if (state.webhook !== webhook || state.closed) return "abandoned" as Outcome;
    if (attempt < WEBHOOK_DELIVERY_ATTEMPTS) await sleep(WEBHOOK_RETRY_DELAY_MS);
  }
  return "failed" as Outcome;
}

/** Delivers queued updates to the webhook one at a time, in order; `kick` whenever something changes. */
export function createWebhookPump(state: State, invoke: Invoke): { kick(): void; stop(): Promise<void> } {
  const controller = new AbortController();
  let running: Promise<void> | undefined;
  const run = async () => {
    for (;;) {
      const webhook = state.webhook;
      const update = state.redeliveries[0] ?? state.queue[0];
      if (!webhook || !update || state.closed) return;
      const outcome = await deliver(state, webhook, update, controller.signal, invoke);
      if (outcome === "abandoned") return;
      state.redeliveries = state.redeliveries.filter((u) => u !== update);
      state.queue = state.queue.filter((u) => u !== update);
      if (outcome === "failed") {
        const reason = `webhook delivery failed ${WEBHOOK_DELIVERY_ATTEMPTS} times: ${webhook.lastErrorMessage}`;
        state.dropped.push({ update, reason, at: state.now() });
      }
      notify(state);
    }
  };
  const kick = () => {
    if (running || state.closed || !state.webhook) return;
    if (state.redeliveries.length === 0 && state.queue.length === 0) return;
    running = run().finally(() => {
      running = undefined;
      kick();
    });
  };
  const stop = async () => {
    controller.abort();
    await running?.catch(() => undefined);
  };
  return { kick, stop };
}
