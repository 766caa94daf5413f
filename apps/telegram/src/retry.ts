/**
 * Bounded retries for Bot API calls, as a grammY API transformer (what `@grammyjs/auto-retry` does, with
 * hard bounds): a 429 waits out its `retry_after`, a 5xx answer or a network failure is retried with a
 * doubling pause, and after `maxAttempts` tries the last answer stands, so the caller sees the platform's
 * error. Every wait ends early when the call's signal aborts.
 */
import { HttpError, type Transformer } from "grammy";
import { RETRY_AFTER_MAX_SECONDS, RETRY_MAX_ATTEMPTS, RETRY_SERVER_ERROR_DELAY_MS } from "./limits.ts";

/** Options of {@link retryTransformer}; every field has a default from `limits.ts`. */
export interface RetryOptions {
  /** Tries per call, the first included (default 4). */
  maxAttempts?: number;
  /** A 429 asking to wait longer than this fails at once (default 60). */
  maxRetryAfterSeconds?: number;
  /** Pause before the first retry of a 5xx answer or a network failure, doubled per try (default 1000). */
  serverErrorDelayMs?: number;
}

/** The slice of an abort signal `sleep` needs (grammY's signal type comes from a polyfill). */
interface Signal {
  readonly aborted: boolean;
  addEventListener(type: "abort", listener: () => void): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

function sleep(ms: number, signal: Signal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done);
  });
}

/**
 * A grammY transformer that retries 429 (after `retry_after`), 5xx and network failures, a bounded
 * number of times.
 *
 * @example
 * const api = new Api(token);
 * api.config.use(retryTransformer({ maxAttempts: 3 }));
 */
export function retryTransformer(options: RetryOptions = {}): Transformer {
  const maxAttempts = Math.max(1, options.maxAttempts ?? RETRY_MAX_ATTEMPTS);
  const maxRetryAfterSeconds = options.maxRetryAfterSeconds ?? RETRY_AFTER_MAX_SECONDS;
  const serverErrorDelayMs = options.serverErrorDelayMs ?? RETRY_SERVER_ERROR_DELAY_MS;
  return async (prev, method, payload, signal) => {
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= maxAttempts;
      const backoff = serverErrorDelayMs * 2 ** (attempt - 1);
      let response: Awaited<ReturnType<typeof prev>>;
      try {
        response = await prev(method, payload, signal);
      } catch (error) {
        if (last || !(error instanceof HttpError) || signal?.aborted) throw error;
        await sleep(backoff, signal);
        continue;
      }
      if (response.ok || last || signal?.aborted) return response;
      if (response.error_code === 429) {
        const retryAfter = response.parameters?.retry_after ?? 1;
        if (retryAfter > maxRetryAfterSeconds) return response;
        await sleep(retryAfter * 1000, signal);
      } else if (response.error_code >= 500) {
        await sleep(backoff, signal);
      } else {
        return response;
      }
    }
  };
}
