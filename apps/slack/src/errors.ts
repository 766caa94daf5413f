/**
 * Slack Web API failures → core's `ChannelError`, in one place: Slack said no (`{ ok: false, error }`:
 * "refused", with Slack's error code), the network failed or Slack answered 5xx ("unreachable": it may
 * or may not have happened), or Slack said later (429 / `ratelimited`: "rate_limited" with Retry-After).
 * And which failures the WebClient tries again: a 429 only ({@link SLACK_RETRY_POLICY}) — a post whose
 * connection failed may have reached Slack, and sending it again could leave a second prompt with live
 * controls (calls safe to repeat are retried by `outbound.ts`).
 */
import { ChannelError, describeError } from "@ask-user/core/channel";
import { webApi } from "@slack/bolt";
import { RATE_LIMIT_RETRIES_MAX, RATE_LIMIT_RETRY_TIME_MAX_MS } from "./limits.ts";

const CHANNEL = "slack";

/**
 * What the WebClient throws once its retries for a 429 are used up: a request error whose original
 * names the wait (`A rate limit was exceeded (url: …, retry-after: 30)`), not a `WebAPIRateLimitedError`
 * (that one comes only with `rejectRateLimitedCalls`).
 */
const RATE_LIMIT_RETRIES_EXHAUSTED = /^A rate limit was exceeded \(.*retry-after: (\d+)\)$/;

/** Edit failures that mean "nothing left to do": the message or its channel is gone. */
const GONE = new Set(["message_not_found", "channel_not_found", "is_archived"]);

function isCallError(error: unknown): error is webApi.WebAPICallError {
  const code = (error as { code?: unknown } | undefined)?.code;
  return (
    error instanceof Error &&
    (code === webApi.ErrorCode.PlatformError ||
      code === webApi.ErrorCode.RequestError ||
      code === webApi.ErrorCode.HTTPError ||
      code === webApi.ErrorCode.RateLimitedError)
  );
}

function rateLimited(method: string, retryAfterSec: number | undefined, cause: unknown): ChannelError {
  const wait = retryAfterSec === undefined ? "" : ` (retry after ${retryAfterSec} s)`;
  return new ChannelError(CHANNEL, "rate_limited", `Slack rate-limited ${method}${wait}`, {
    method,
    status: 429,
    ...(retryAfterSec === undefined ? {} : { retryAfterMs: retryAfterSec * 1000 }),
    cause,
  });
}

function unreachable(method: string, reason: string, cause: unknown, status?: number): ChannelError {
  return new ChannelError(CHANNEL, "unreachable", `Could not reach Slack for ${method}: ${reason}`, {
    method,
    ...(status === undefined ? {} : { status }),
    cause,
  });
}

/**
 * The one mapping of a failed Slack call into core's error family, keeping Slack's words and never a
 * token: `Slack refused chat.postMessage: not_in_channel`, `Could not reach Slack for chat.update:
 * fetch failed`, `Slack rate-limited chat.postMessage (retry after 30 s)`. A `ChannelError` passes
 * through unchanged.
 *
 * @example
 * try { await client.chat.postMessage(args) } catch (error) { throw toChannelError(error, "chat.postMessage") }
 */
export function toChannelError(error: unknown, method: string): ChannelError {
  if (error instanceof ChannelError) return error;
  if (isCallError(error)) {
    switch (error.code) {
      case webApi.ErrorCode.PlatformError: {
        const code = error.data.error;
        if (code === "ratelimited")
          return rateLimited(method, error.data.response_metadata?.retryAfter, error);
        return new ChannelError(CHANNEL, "refused", `Slack refused ${method}: ${code}`, {
          method,
          status: code,
          cause: error,
        });
      }
      case webApi.ErrorCode.RateLimitedError:
        return rateLimited(method, error.retryAfter, error);
      case webApi.ErrorCode.HTTPError:
        if (error.statusCode === 429) return rateLimited(method, undefined, error);
        if (error.statusCode >= 500)
          return unreachable(method, `HTTP ${error.statusCode}`, error, error.statusCode);
        return new ChannelError(CHANNEL, "refused", `Slack refused ${method}: HTTP ${error.statusCode}`, {
          method,
          status: error.statusCode,
          cause: error,
        });
      case webApi.ErrorCode.RequestError: {
        const exhausted = RATE_LIMIT_RETRIES_EXHAUSTED.exec(error.original.message);
        if (exhausted) return rateLimited(method, Number(exhausted[1]), error);
        return unreachable(method, error.original.message, error);
      }
    }
  }
  return unreachable(method, describeError(error), error);
}

/**
 * True for what the WebClient throws after waiting out a 429's `Retry-After` (before it tries again, or
 * once its retries are spent): a request error whose original names the wait. Slack did nothing, so
 * any call may be tried again.
 */
export function isRateLimitWait(error: unknown): boolean {
  const original = (error as { original?: unknown } | undefined)?.original;
  return original instanceof Error && RATE_LIMIT_RETRIES_EXHAUSTED.test(original.message);
}

/** True when an edit failed because there is nothing left to edit (the message or channel is gone). */
export function isSettledEditError(error: unknown): boolean {
  return isCallError(error) && error.code === webApi.ErrorCode.PlatformError && GONE.has(error.data.error);
}

/** The WebClient's `retryConfig` type plus the hook its retry loop (p-retry) calls after each failure. */
export type SlackRetryPolicy = webApi.RetryOptions & { onFailedAttempt(error: Error): void };

/**
 * The WebClient retry policy of the plugin's app, for yours too: a rate-limited call (429) is tried
 * again after Slack's `Retry-After`, at most 3 times and not past one minute; every other failure ends at
 * once (the SDK's default tries every failure of every method again, 10 times over about 30 minutes —
 * a post whose connection dropped included). p-retry's `onFailedAttempt` stops the retries by throwing.
 *
 * @example
 * new App({ token, appToken, socketMode: true, clientOptions: { retryConfig: SLACK_RETRY_POLICY } });
 */
export const SLACK_RETRY_POLICY: Readonly<SlackRetryPolicy> = Object.freeze({
  retries: RATE_LIMIT_RETRIES_MAX,
  factor: 2,
  minTimeout: 500,
  maxTimeout: 5000,
  maxRetryTime: RATE_LIMIT_RETRY_TIME_MAX_MS,
  onFailedAttempt(error: Error) {
    if (!isRateLimitWait(error)) throw error;
  },
});
