/**
 * Telegram failures → core's `ChannelError`: refused (a 4xx), rate-limited (429 with `retry_after`), or
 * unreachable (`HttpError`: timeout, reset, DNS; or a 5xx) — so `record.error` reads the same everywhere.
 */
import { ChannelError, describeError } from "@ask-user/core/channel";
import { GrammyError, HttpError } from "grammy";

/**
 * A failed Bot API call as core's `ChannelError`, with Telegram's words and never the token.
 *
 * @example toChannelError(error, "sendMessage") // Telegram refused sendMessage: 400 Bad Request: chat not found
 */
export function toChannelError(error: unknown, method: string): ChannelError {
  if (error instanceof ChannelError) return error;
  if (error instanceof GrammyError) {
    const status = error.error_code;
    const words = `${method}: ${status} ${error.description}`;
    const options = { method, status, cause: error };
    if (status >= 500)
      return new ChannelError("telegram", "unreachable", `Telegram failed ${words}`, options);
    if (status !== 429) return new ChannelError("telegram", "refused", `Telegram refused ${words}`, options);
    const retryAfter = error.parameters.retry_after;
    const limited = retryAfter === undefined ? options : { ...options, retryAfterMs: retryAfter * 1000 };
    return new ChannelError("telegram", "rate_limited", `Telegram rate-limited ${words}`, limited);
  }
  const reason = error instanceof HttpError ? error.message : describeError(error);
  return new ChannelError("telegram", "unreachable", `Could not reach Telegram for ${method}: ${reason}`, {
    method,
    cause: error,
  });
}

/** True when Telegram refused the call (a 4xx other than 429): trying again would not help. */
export function isRefusal(error: unknown): error is GrammyError {
  const code = error instanceof GrammyError ? error.error_code : 0;
  return code >= 400 && code < 500 && code !== 429;
}

/** Edit failures that mean "nothing left to do": the message already shows this, or it is gone. */
export function isSettledEditError(error: unknown): boolean {
  if (!(error instanceof GrammyError) || error.error_code !== 400) return false;
  const description = error.description.toLowerCase();
  return description.includes("message is not modified") || description.includes("message to edit not found");
}
