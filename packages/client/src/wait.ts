import { Backoff, type RetryOptions } from "./backoff.ts";
import { isRetryable } from "./errors.ts";
import { type Connection, requestJson } from "./http.ts";
import type { PublicQuestion } from "./types.ts";

/** Options of `wait`. */
export interface WaitOptions {
  /** Aborting stops waiting (rejects with the abort reason); the question is left as it is. */
  signal?: AbortSignal;
  /** How long one long-poll request may be held by the gateway, 1-300 s (default 25). */
  sliceSeconds?: number;
  /** How retries back off while the gateway is unreachable (it restarts, the network drops). */
  retry?: RetryOptions;
}

/** The path of one question. */
export function questionPath(id: string): string {
  return `/v1/questions/${encodeURIComponent(id)}`;
}

/**
 * Long-polls `GET /v1/questions/:id?wait=` until the question has ended and returns it (with
 * `result`). A gateway that is unreachable, restarting or draining is asked again with a doubling
 * pause (250 ms … 5 s) until it answers, for at most `retry.maxOutageMs` of continuous failure; a
 * restarted gateway with its durable store knows the question and the wait goes on.
 */
export async function waitUntilEnded(
  connection: Connection,
  id: string,
  options: WaitOptions = {},
): Promise<PublicQuestion> {
  const { signal } = options;
  const slice = Math.max(1, Math.min(300, Math.round(options.sliceSeconds ?? 25)));
  const backoff = new Backoff(options.retry);
  for (;;) {
    let question: PublicQuestion;
    try {
      question = await requestJson<PublicQuestion>(connection, `${questionPath(id)}?wait=${slice}`, {
        signal,
        holdSeconds: slice,
      });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (!isRetryable(error)) throw error;
      await backoff.pause(error, signal);
      continue;
    }
    backoff.reset();
    if (question.status !== "pending") return question;
  }
}
