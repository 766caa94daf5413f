/**
 * What is tried again after a failure, and what never is. A post (`chat.postMessage`,
 * `chat.postEphemeral`, `views.open`) whose connection failed or that got a 5xx may have reached Slack:
 * sending it again could leave a second prompt with live controls (or open a second modal), so it fails
 * as `ChannelError("unreachable")` instead. Tried again are only:
 * - a 429, by the WebClient after Slack's `Retry-After` ({@link SLACK_RETRY_POLICY}): Slack did nothing;
 * - a call that is safe to repeat, when Slack could not be reached ({@link retryIdempotent}): an edit
 *   (`chat.update` sets the same content again), `conversations.open` (gives the same DM) and
 *   `reactions.add` (a repeat is `already_reacted`, which counts as done).
 */
import { ChannelError } from "@ask-user/core";
import type { webApi } from "@slack/bolt";
import { isRateLimitWait } from "./errors.ts";
import {
  IDEMPOTENT_ATTEMPTS_MAX,
  IDEMPOTENT_RETRY_DELAY_MS,
  RATE_LIMIT_RETRIES_MAX,
  RATE_LIMIT_RETRY_TIME_MAX_MS,
} from "./limits.ts";

/** The WebClient's `retryConfig` type plus the hook its retry loop (p-retry) calls after each failure. */
export type SlackRetryPolicy = webApi.RetryOptions & { onFailedAttempt(error: Error): void };

/**
 * The WebClient retry policy of the plugin's app, for yours too: a rate-limited call (429) is tried
 * again after Slack's `Retry-After`, at most 3 times and not past one minute; every other failure ends at
 * once (the SDK's default tries every failure of every method again, 10 times over about 30 minutes —
 * a post whose connection dropped included). The WebClient hands `retryConfig` to p-retry, whose
 * `onFailedAttempt` stops the retries by throwing.
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

/**
 * Runs a call that is safe to repeat, trying it again while it fails as `unreachable` (a dropped
 * connection, a timeout, a 5xx): at most {@link IDEMPOTENT_ATTEMPTS_MAX} tries, pausing 0.5 s, then 1 s.
 * `work` throws `ChannelError` (see `toChannelError`); any other failure ends at once.
 *
 * @example
 * await retryIdempotent(() => call("chat.update", () => client.chat.update(edit)));
 */
export async function retryIdempotent<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const again =
        error instanceof ChannelError && error.failure === "unreachable" && attempt < IDEMPOTENT_ATTEMPTS_MAX;
      if (!again) throw error;
      await new Promise((resolve) => setTimeout(resolve, IDEMPOTENT_RETRY_DELAY_MS * 2 ** (attempt - 1)));
    }
  }
}
