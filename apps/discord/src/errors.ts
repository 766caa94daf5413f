/**
 * Discord's failures in core's terms: the one mapping from discord.js errors to core's `ChannelError`,
 * used for every REST call whose failure reaches core (deliver, finalize, notify), so `record.error`
 * reads the same on every channel and no raw SDK error reaches the broker.
 */
import {
  ChannelError,
  type ChannelErrorOptions,
  type ChannelFailure,
  describeError,
} from "@ask-user/core/channel";
import { DiscordAPIError, HTTPError, RateLimitError, RESTJSONErrorCodes } from "discord.js";

/** Discord's JSON error codes that mean "the message to edit is gone": an edit that has nothing to do. */
const GONE = new Set<number | string>([RESTJSONErrorCodes.UnknownMessage, RESTJSONErrorCodes.UnknownChannel]);

/** Seconds → ms from a 429 body's `retry_after` (Discord sends seconds, with decimals). */
function retryAfterOf(error: DiscordAPIError): number | undefined {
  const seconds = (error.rawError as { retry_after?: unknown }).retry_after;
  return typeof seconds === "number" ? Math.ceil(seconds * 1000) : undefined;
}

/**
 * Maps a failed Discord call (`method`, e.g. `POST /channels/{id}/messages`) to core's `ChannelError`:
 *
 * - Discord answered no (`DiscordAPIError`: unknown channel, missing access, invalid form body) →
 *   `refused`, with its HTTP status, description and JSON code in the message and the JSON code (or the
 *   HTTP status when there is none) as `status`;
 * - Discord said "later" (discord.js's `RateLimitError`, or a 429 that reached us) → `rate_limited`
 *   with `retryAfterMs`;
 * - no answer (timeout, reset, refused connection, DNS) or a 5xx after discord.js's retries (it may or
 *   may not have happened) → `unreachable`.
 *
 * A `ChannelError` is returned as it is. Messages never carry the token or an interaction token.
 *
 * @example
 * try { await client.rest.post(Routes.channelMessages(id), { body }) }
 * catch (error) { throw toChannelError(error, "POST /channels/{id}/messages") }
 */
export function toChannelError(error: unknown, method: string): ChannelError {
  if (error instanceof ChannelError) return error;
  const fail = (
    failure: ChannelFailure,
    text: string,
    options: Omit<ChannelErrorOptions, "method" | "cause">,
  ) => new ChannelError("discord", failure, text, { method, ...options, cause: error });
  if (error instanceof RateLimitError) {
    const retryAfterMs = Math.ceil(error.retryAfter);
    return fail("rate_limited", `Discord rate-limited ${method}: retry after ${retryAfterMs} ms`, {
      status: 429,
      retryAfterMs,
    });
  }
  if (error instanceof DiscordAPIError) {
    if (error.status === 429) {
      const retryAfterMs = retryAfterOf(error);
      return fail("rate_limited", `Discord rate-limited ${method}: ${error.message}`, {
        status: 429,
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      });
    }
    const code = error.code === 0 || error.code === "" ? undefined : error.code;
    const text = `${error.status} ${error.message}${code === undefined ? "" : ` (code ${code})`}`;
    return fail("refused", `Discord refused ${method}: ${text}`, { status: code ?? error.status });
  }
  if (error instanceof HTTPError) {
    return fail("unreachable", `Discord failed ${method}: ${error.status} ${error.message}`, {
      status: error.status,
    });
  }
  return fail("unreachable", `Discord unreachable for ${method}: ${describeError(error)}`, {});
}

/**
 * True when an edit failed because there is nothing left to edit (the message or its channel was
 * deleted): the summary has nowhere to go, which is not an error.
 */
export function isSettledEditError(error: unknown): boolean {
  const failure = toChannelError(error, "edit");
  return failure.failure === "refused" && failure.status !== undefined && GONE.has(failure.status);
}
