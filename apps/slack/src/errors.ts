/**
 * Slack Web API failures → core's `ChannelError` (a 5xx is "unreachable": it may have happened), and what
 * the WebClient retries: a 429 only — a post whose connection failed may have reached Slack, and sending
 * it again could leave a second prompt with live controls.
 */
import { ChannelError, type ChannelFailure, describeError } from "@ask-user/core/channel";
import { webApi } from "@slack/bolt";

/**
 * What the WebClient throws once it waited out a 429 (before it tries again, or once its retries are
 * spent): a request error naming the wait — not a `WebAPIRateLimitedError`, which only comes with
 * `rejectRateLimitedCalls`. Slack did nothing, so any call may be tried again.
 */
const RATE_LIMIT_WAIT = /^A rate limit was exceeded \(.*retry-after: (\d+)\)$/;

/** Edit failures that mean "nothing left to do": the message or its channel is gone. */
const GONE = new Set(["message_not_found", "channel_not_found", "is_archived"]);

const callError = (error: unknown) =>
  error instanceof Error &&
  Object.values<unknown>(webApi.ErrorCode).includes((error as { code?: unknown }).code)
    ? (error as webApi.WebAPICallError)
    : undefined;

/** The one mapping of a failed Slack call, in Slack's words and never a token; a `ChannelError` passes through. */
export function toChannelError(error: unknown, method: string): ChannelError {
  if (error instanceof ChannelError) return error;
  const fail = (failure: ChannelFailure, message: string, status?: number | string, retryAfterSec?: number) =>
    new ChannelError("slack", failure, message, {
      method,
      cause: error,
      status,
      retryAfterMs: retryAfterSec === undefined ? undefined : retryAfterSec * 1000,
    });
  const limited = (sec?: number) =>
    fail(
      "rate_limited",
      `Slack rate-limited ${method}${sec === undefined ? "" : ` (retry after ${sec} s)`}`,
      429,
      sec,
    );
  const unreachable = (reason: string, status?: number) =>
    fail("unreachable", `Could not reach Slack for ${method}: ${reason}`, status);
  const e = callError(error);
  switch (e?.code) {
    case webApi.ErrorCode.PlatformError: {
      const code = e.data.error;
      if (code === "ratelimited") return limited(e.data.response_metadata?.retryAfter);
      return fail("refused", `Slack refused ${method}: ${code}`, code);
    }
    case webApi.ErrorCode.RateLimitedError:
      return limited(e.retryAfter);
    case webApi.ErrorCode.HTTPError:
      if (e.statusCode === 429) return limited();
      if (e.statusCode >= 500) return unreachable(`HTTP ${e.statusCode}`, e.statusCode);
      return fail("refused", `Slack refused ${method}: HTTP ${e.statusCode}`, e.statusCode);
    case webApi.ErrorCode.RequestError: {
      const wait = RATE_LIMIT_WAIT.exec(e.original.message);
      return wait ? limited(Number(wait[1])) : unreachable(e.original.message);
    }
  }
  return unreachable(describeError(error));
}

/** True when an edit failed because there is nothing left to edit (the message or channel is gone). */
export function isSettledEditError(error: unknown): boolean {
  const e = callError(error);
  return e?.code === webApi.ErrorCode.PlatformError && GONE.has(e.data.error);
}

/** The WebClient's `retryConfig` type plus the hook its retry loop (p-retry) calls after each failure. */
export type SlackRetryPolicy = webApi.RetryOptions & { onFailedAttempt(error: Error): void };

/** The WebClient retry policy (README "Rate limits and failures"): p-retry stops when the hook throws. */
export const SLACK_RETRY_POLICY: Readonly<SlackRetryPolicy> = Object.freeze({
  retries: 3,
  factor: 2,
  minTimeout: 500,
  maxTimeout: 5000,
  maxRetryTime: 60_000,
  onFailedAttempt(error: Error) {
    const original = (error as { original?: unknown }).original;
    if (!(original instanceof Error && RATE_LIMIT_WAIT.test(original.message))) throw error;
  },
});
