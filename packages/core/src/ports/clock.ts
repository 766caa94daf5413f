/** A cancellable timer handle. */
export type CancelTimer = () => void;

/**
 * Time, injected: the broker never reads the wall clock or arms timers directly. Tests use
 * `createFakeClock` from `@ask-user/core/testing`.
 */
export interface Clock {
  /** Wall-clock time in epoch milliseconds. */
  now(): number;
  /** Calls `fn` once after about `ms` milliseconds; returns a function that cancels it. */
  setTimer(fn: () => void, ms: number): CancelTimer;
}

/** The real clock: the default when none is injected, and the only place core touches real time. */
export const systemClock: Clock = {
  now: Date.now,
  setTimer(fn, ms) {
    const handle = setTimeout(fn, Math.max(0, Math.min(ms, 2_147_483_647)));
    handle.unref?.();
    return () => clearTimeout(handle);
  },
};

/** The longest delay Node's timers keep (2^31-1 ms, about 24.8 days); longer ones fire at once. */
const TIMER_MAX_MS = 2_147_483_647;

/**
 * Resolves after `ms` milliseconds of real time, or at once when `signal` aborts (it never rejects: a
 * caller that must stop on abort checks `signal.throwIfAborted()` after it). With `unref`, the pause does
 * not keep the process alive (a bound on a shutdown step). The one pause of ask-user.
 *
 * @example
 * await pause(backoffMs, signal);
 * signal?.throwIfAborted();
 */
export function pause(ms: number, signal?: AbortSignal, options: { unref?: boolean } = {}): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve();
      return;
    }
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    // Node fires a timer of Infinity or more than 2^31-1 ms at once: such a pause ends only by `signal`.
    const timer = ms <= TIMER_MAX_MS ? setTimeout(done, Math.max(0, ms)) : undefined;
    if (options.unref) timer?.unref?.();
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** What {@link within} gives when the work has not settled in time. */
export const TIMED_OUT: unique symbol = Symbol("timed out");

/**
 * `work`'s value, or {@link TIMED_OUT} once `ms` passed without it (the work goes on; a rejection before
 * then rejects). The one bound on a wait of ask-user: a platform's acknowledgement budget, a login.
 *
 * @example
 * const first = await within(broker.handleAction(event), 2500);
 * if (first === TIMED_OUT) await acknowledgeNow();
 */
export async function within<T>(work: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  if (!(ms <= TIMER_MAX_MS)) return work; // no bound (Node would fire such a timer at once)
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
