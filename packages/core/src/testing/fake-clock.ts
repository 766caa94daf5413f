import type { Clock } from "../ports/clock.ts";

/** A clock for tests: time stands still until `advance`. */
export interface FakeClock extends Clock {
  /**
   * Moves time forward, firing due timers in deadline order, and then lets pending promise callbacks
   * and I/O callbacks run, so `await clock.advance(ms)` sees the effects of the timers.
   */
  advance(ms: number): Promise<void>;
  /** Jumps time forward without firing timers (a suspended process); they fire on the next advance. */
  jump(ms: number): void;
  /** Timers not yet fired. */
  pendingTimers(): number;
}

interface Timer {
  at: number;
  seq: number;
  fn: () => void;
}

/** Lets queued promise callbacks and one round of I/O run. */
export function flush(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A controllable clock for `createAskUser({ clock })`.
 *
 * @example
 * const clock = createFakeClock(Date.UTC(2026, 0, 1, 14, 0));
 * await clock.advance(900_000); // the default timeout passes
 */
export function createFakeClock(startMs = 0): FakeClock {
  let now = startMs;
  let seq = 0;
  const timers = new Set<Timer>();
  return {
    now: () => now,
    setTimer(fn, ms) {
      const timer: Timer = { at: now + Math.max(0, ms), seq: seq++, fn };
      timers.add(timer);
      return () => timers.delete(timer);
    },
    async advance(ms) {
      const end = now + ms;
      for (;;) {
        await flush();
        let next: Timer | undefined;
        for (const timer of timers) {
          if (
            timer.at <= end &&
            (!next || timer.at < next.at || (timer.at === next.at && timer.seq < next.seq))
          ) {
            next = timer;
          }
        }
        if (!next) break;
        timers.delete(next);
        now = Math.max(now, next.at);
        next.fn();
      }
      now = end;
      await flush();
      await flush();
    },
    jump(ms) {
      now += ms;
    },
    pendingTimers: () => timers.size,
  };
}
