import { pause } from "@ask-user/core";
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
  /**
   * An absolute give-up time (epoch ms): a failure after it is not retried, however short the outage
   * (e.g. a question's `expiresAt` plus a grace, past which waiting on it is pointless). Default: none.
   */
  giveUpAt?: number;
}

/** A streak of failures: the pause before each retry (doubling, capped, with jitter) and the give-up time. */
export class Backoff {
  private failures = 0;
  private since: number | undefined;
  private readonly initialDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly maxOutageMs: number;
  private readonly giveUpAt: number;

  constructor(options: RetryOptions = {}) {
    this.initialDelayMs = options.initialDelayMs ?? 250;
    this.maxDelayMs = options.maxDelayMs ?? 5000;
    this.maxOutageMs = options.maxOutageMs ?? 120_000;
    this.giveUpAt = options.giveUpAt ?? Number.POSITIVE_INFINITY;
  }

  /** How many failures the current streak has had (0 after a success). */
  get attempts(): number {
    return this.failures;
  }

  /** When the current streak began (epoch ms), undefined while calls go through. */
  get outageSince(): number | undefined {
    return this.since;
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
    await sleep(this.next(error, minDelayMs), signal);
  }

  /**
   * Records a failure and returns the pause before the retry (never past the give-up time); rethrows
   * `error` once the outage lasts longer than allowed or the give-up time has come.
   */
  next(error: unknown, minDelayMs = 0): number {
    const now = Date.now();
    this.since ??= now;
    const end = Math.min(this.since + this.maxOutageMs, this.giveUpAt);
    if (now >= end) throw error;
    const exponential = Math.min(this.maxDelayMs, this.initialDelayMs * 2 ** this.failures);
    this.failures++;
    const delay = Math.max(minDelayMs, exponential * (0.75 + Math.random() * 0.25));
    return Math.min(delay, end - now);
  }
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first (core's `pause`). */
export async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  signal?.throwIfAborted();
  await pause(ms, signal);
  signal?.throwIfAborted();
}
