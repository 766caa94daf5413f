/** How calls that wait (`wait`, `events`) ride out a gateway that restarts or a network that drops. */
export interface RetryOptions {
  /** The first pause after a failure (default 250 ms); each further one doubles. */
  initialDelayMs?: number;
  /** The longest pause (default 5000 ms). */
  maxDelayMs?: number;
  /**
   * How long the gateway may stay unreachable, counted from the first failure of a streak, before
   * the call gives up with the last error (default 120 000 ms).
   */
  maxOutageMs?: number;
}

/** A streak of failures: the pause before each retry (doubling, capped, with jitter) and the give-up time. */
export class Backoff {
  private failures = 0;
  private since: number | undefined;
  private readonly initialDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly maxOutageMs: number;

  constructor(options: RetryOptions = {}) {
    this.initialDelayMs = options.initialDelayMs ?? 250;
    this.maxDelayMs = options.maxDelayMs ?? 5000;
    this.maxOutageMs = options.maxOutageMs ?? 120_000;
  }

  /** A call went through: the next failure starts a new streak. */
  reset(): void {
    this.failures = 0;
    this.since = undefined;
  }

  /**
   * Records a failure and waits before the retry; rethrows `error` once the outage lasts longer than
   * allowed, and the abort reason when `signal` aborts the pause.
   */
  async pause(error: unknown, signal: AbortSignal | undefined, minDelayMs = 0): Promise<void> {
    const now = Date.now();
    this.since ??= now;
    if (now - this.since >= this.maxOutageMs) throw error;
    const exponential = Math.min(this.maxDelayMs, this.initialDelayMs * 2 ** this.failures);
    this.failures++;
    const delay = Math.max(minDelayMs, exponential * (0.75 + Math.random() * 0.25));
    await sleep(Math.min(delay, this.since + this.maxOutageMs - now), signal);
  }
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
