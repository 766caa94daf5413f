/**
 * Discord's failures in core's terms: the one mapping from discord.js errors to core's `ChannelError`,
 * used for every REST call whose failure reaches core (deliver, finalize, notify), so `record.error`
 * reads the same on every channel and no raw SDK error reaches the broker.
 */
import { ChannelError, type ChannelErrorOptions, describeError } from "@ask-user/core/channel";
import { DiscordAPIError, HTTPError, RateLimitError, RESTJSONErrorCodes } from "discord.js";

/** Discord's JSON error codes that mean "the message to edit is gone": an edit that has nothing to do. */
const GONE = new Set<number | string>([RESTJSONErrorCodes.UnknownMessage, RESTJSONErrorCodes.UnknownChannel]);

/**
 * A failed call (`method`, e.g. `POST /channels/{id}/messages`) as core's `ChannelError`: Discord said
 * no → `refused` (`status`: its JSON code, else the HTTP status); Discord said later → `rate_limited`
 * with `retryAfterMs`; no answer or a 5xx after discord.js's retries (it may or may not have happened)
 * → `unreachable`. Messages never carry the token or an interaction token.
 */
export function toChannelError(error: unknown, method: string): ChannelError {
  if (error instanceof ChannelError) return error;
  const fail = (failure: ChannelError["failure"], text: string, options: ChannelErrorOptions = {}) =>
    new ChannelError("discord", failure, text, { ...options, method, cause: error });
  if (error instanceof RateLimitError) {
    const retryAfterMs = Math.ceil(error.retryAfter);
    const text = `Discord rate-limited ${method}: retry after ${retryAfterMs} ms`;
    return fail("rate_limited", text, { status: 429, retryAfterMs });
  }
  if (error instanceof DiscordAPIError) {
    // Discord sends `retry_after` in seconds, with decimals.
    const seconds = (error.rawError as { retry_after?: unknown }).retry_after;
    const retryAfterMs = typeof seconds === "number" ? Math.ceil(seconds * 1000) : undefined;
    const limited = `Discord rate-limited ${method}: ${error.message}`;
    if (error.status === 429) return fail("rate_limited", limited, { status: 429, retryAfterMs });
    const code = error.code === 0 || error.code === "" ? undefined : error.code;
    const text = `${error.status} ${error.message}${code === undefined ? "" : ` (code ${code})`}`;
    return fail("refused", `Discord refused ${method}: ${text}`, { status: code ?? error.status });
  }
  if (error instanceof HTTPError) {
    const text = `Discord failed ${method}: ${error.status} ${error.message}`;
    return fail("unreachable", text, { status: error.status });
  }
  return fail("unreachable", `Discord unreachable for ${method}: ${describeError(error)}`);
}

/** An edit failed because the message or its channel was deleted: the summary has nowhere to go, no error. */
export function isSettledEditError(error: unknown): boolean {
  const failure = toChannelError(error, "edit");
  return failure.failure === "refused" && failure.status !== undefined && GONE.has(failure.status);
}
