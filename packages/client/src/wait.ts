import { Backoff, type RetryOptions, sleep } from "./backoff.ts";
import { type GatewayError, isRetryable } from "./errors.ts";
import { type Connection, requestJson } from "./http.ts";
import type { PublicQuestion } from "./types.ts";

/** A failed wait slice about to be retried (see {@link WaitOptions.onRetry}). */
export interface RetryEvent {
  /** Why the slice failed: a `GatewayUnavailableError` (unreachable, network, timeout, 5xx, 503). */
  error: GatewayError;
  /** The pause before the next attempt. */
  delayMs: number;
  /** 1 for the first failure of a streak, then 2, 3, … */
  attempt: number;
}

/** Options of `wait`. */
export interface WaitOptions {
  /** Aborting stops waiting (rejects with the abort reason); the question is left as it is. */
  signal?: AbortSignal;
  /** How long one long-poll request may be held by the gateway, 1-300 s (default 25). */
  sliceSeconds?: number;
  /** How retries back off while the gateway is unreachable (it restarts, the network drops). */
  retry?: RetryOptions;
  /** Called before each retry while the gateway cannot be reached: to tell a person it goes on. */
  onRetry?: (event: RetryEvent) => void;
  /** Called when the gateway answers again after failures: how many there were and how long it took. */
  onReconnect?: (event: { attempts: number; outageMs: number }) => void;
}

/** The longest long-poll the gateway holds (its own cap). */
export const MAX_WAIT_SECONDS = 300;

/** The path of one question. */
export function questionPath(id: string): string {
  return `/v1/questions/${encodeURIComponent(id)}`;
}

/**
 * One `GET /v1/questions/:id`, with `?wait=` when `waitSeconds` is above 0: the gateway holds the
 * request while the question is pending, up to that long (1-300 s, rounded up), then answers with it.
 */
export function readQuestion(
  connection: Connection,
  id: string,
  options: { waitSeconds?: number | undefined; signal?: AbortSignal | undefined } = {},
): Promise<PublicQuestion> {
  const { waitSeconds, signal } = options;
  if (waitSeconds === undefined || !(waitSeconds > 0)) {
    return requestJson<PublicQuestion>(connection, questionPath(id), { signal });
  }
  const wait = Math.min(MAX_WAIT_SECONDS, Math.ceil(waitSeconds));
  return requestJson<PublicQuestion>(connection, `${questionPath(id)}?wait=${wait}`, {
    signal,
    holdSeconds: wait,
  });
}

/**
 * Long-polls `GET /v1/questions/:id?wait=` until the question has ended and returns it (with
 * `result`). A gateway that is unreachable, restarting or draining is asked again with a doubling
 * pause (250 ms … 5 s) until it answers, for at most `retry.maxOutageMs` of continuous failure (and
 * never past `retry.giveUpAt`); a restarted gateway with its durable store knows the question and the
 * wait goes on. The first attempt after a failure reads without waiting, so `onReconnect` comes as soon
 * as the gateway answers again.
 */
export async function waitUntilEnded(
  connection: Connection,
  id: string,
  options: WaitOptions = {},
): Promise<PublicQuestion> {
  const { signal } = options;
  const slice = Math.max(1, Math.min(MAX_WAIT_SECONDS, Math.round(options.sliceSeconds ?? 25)));
  const backoff = new Backoff(options.retry);
  for (;;) {
    let question: PublicQuestion;
    try {
      // After a failure, first a quick read: it tells at once whether the gateway is back (a held
      // long-poll would only say so when it ends) and what became of the question meanwhile.
      const waitSeconds = backoff.attempts > 0 ? 0 : slice;
      question = await readQuestion(connection, id, { waitSeconds, signal });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (!isRetryable(error)) throw error;
      const delayMs = backoff.next(error);
      options.onRetry?.({ error: error as GatewayError, delayMs, attempt: backoff.attempts });
      await sleep(delayMs, signal);
      continue;
    }
    const attempts = backoff.attempts;
    const since = backoff.outageSince;
    backoff.reset();
    if (attempts > 0 && since !== undefined)
      options.onReconnect?.({ attempts, outageMs: Date.now() - since });
    if (question.status !== "pending") return question;
  }
}
