import { type AskUserBroker, isTerminal, type QuestionRecord } from "@ask-user/core";
import type { AbortLike, AbortListener } from "./abort.ts";

/** How often a waiting question is read again, in case its resolution event was missed. Default 30 s. */
const DEFAULT_RECHECK_MS = 30_000;
/** How often the shared timer looks for waiters due a re-read. */
const TICK_MS = 1000;
/** At most this many re-reads start per tick (the rest wait for the next tick). */
const RECHECKS_PER_TICK = 1000;

/**
 * One waiter: a class, so that waking it and its `abort` listener (`handleEvent`) are methods on the
 * prototype, not closures made per waiter.
 */
class Waiter implements AbortListener {
  done = false;

  constructor(
    readonly id: string,
    public recheckAt: number,
    private readonly signal: AbortLike | undefined,
    private readonly resolve: (record: QuestionRecord | undefined) => void,
    private readonly reject: (error: unknown) => void,
    private readonly remove: (waiter: Waiter) => void,
  ) {}

  /** Ends the wait with the record (`undefined`: aborted, or an unknown question). */
  wake(record: QuestionRecord | undefined): void {
    if (this.end()) this.resolve(record);
  }

  fail(error: unknown): void {
    if (this.end()) this.reject(error);
  }

  /** The signal's `abort` event. */
  handleEvent(): void {
    this.wake(undefined);
  }

  private end(): boolean {
    if (this.done) return false;
    this.done = true;
    this.remove(this);
    this.signal?.removeEventListener("abort", this);
    return true;
  }
}

/** Waits for questions to end on one broker: one listener and one timer, however many wait. */
export interface EndWaiters {
  /**
   * Resolves with the question's record once it has ended (at once when it already has), with
   * `undefined` when `signal` aborts first or the question is unknown. Rejects when reading it fails.
   */
  wait(id: string, signal?: AbortLike): Promise<QuestionRecord | undefined>;
  /** How many calls wait now. */
  readonly size: number;
}

/**
 * Waiting for the end of many questions at a constant cost per waiter: ONE broker subscription whose
 * events are dispatched by question id through a Map (an answer wakes its own waiters only, O(1)),
 * instead of one subscription, timer and promise chain per waiter. One shared timer re-reads each
 * waiting question every `recheckMs` (spread over ticks), so an event missed by the store's
 * subscription (e.g. a Redis reconnect) costs at most that long. The subscription is taken with the
 * first waiter and given up when none is left.
 */
export function createEndWaiters(
  broker: AskUserBroker,
  options: { recheckMs?: number; now?: () => number } = {},
): EndWaiters {
  const recheckMs = options.recheckMs ?? DEFAULT_RECHECK_MS;
  const now = options.now ?? Date.now;
  /** Waiters by question id; almost always one per id (a Set only when several wait for one question). */
  const byId = new Map<string, Waiter | Set<Waiter>>();
  let count = 0;
  let unsubscribe: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;

  const each = (id: string, visit: (waiter: Waiter) => void) => {
    const entry = byId.get(id);
    if (entry === undefined) return;
    if (entry instanceof Set) for (const waiter of [...entry]) visit(waiter);
    else visit(entry);
  };

  const remove = (waiter: Waiter) => {
    const id = waiter.id;
    const entry = byId.get(id);
    if (entry === waiter) byId.delete(id);
    else if (entry instanceof Set && entry.delete(waiter)) {
      if (entry.size === 1) byId.set(id, entry.values().next().value as Waiter);
    } else return;
    count--;
    if (count === 0) {
      unsubscribe?.();
      unsubscribe = undefined;
      clearInterval(timer);
      timer = undefined;
    }
  };

  const tick = () => {
    const at = now();
    let started = 0;
    for (const [id, entry] of byId) {
      if (started >= RECHECKS_PER_TICK) break;
      const due = entry instanceof Set ? [...entry].some((w) => w.recheckAt <= at) : entry.recheckAt <= at;
      if (!due) continue;
      started++;
      each(id, (waiter) => {
        waiter.recheckAt = at + recheckMs;
      });
      broker.get(id).then(
        (record) => {
          if (!record || isTerminal(record.status)) each(id, (waiter) => waiter.wake(record));
        },
        () => undefined, // the store failed: read again at the next re-check
      );
    }
  };

  const add = (id: string, waiter: Waiter) => {
    const entry = byId.get(id);
    if (entry === undefined) byId.set(id, waiter);
    else if (entry instanceof Set) entry.add(waiter);
    else byId.set(id, new Set([entry, waiter]));
    count++;
    unsubscribe ??= broker.subscribe((event) => {
      if (isTerminal(event.record.status)) each(event.record.id, (w) => w.wake(event.record));
    });
    if (timer === undefined) {
      timer = setInterval(tick, Math.min(TICK_MS, recheckMs));
      timer.unref();
    }
  };

  return {
    get size() {
      return count;
    },
    wait(id, signal) {
      if (signal?.aborted) return Promise.resolve(undefined);
      return new Promise((resolve, reject) => {
        const waiter = new Waiter(id, now() + recheckMs, signal, resolve, reject, remove);
        // Listen first, then read: a resolution between the two is never missed.
        add(id, waiter);
        signal?.addEventListener("abort", waiter, { once: true });
        broker.get(id).then(
          (record) => {
            if (!record || isTerminal(record.status)) waiter.wake(record);
          },
          (error: unknown) => waiter.fail(error),
        );
      });
    },
  };
}
