import type { Coordination } from "../ports/coordination.ts";
import type { QuestionStore } from "../ports/store.ts";
import { createMemoryStore } from "../stores/memory.ts";

/** A store whose writes wait while `slow` is true (set it at any time). */
export type SlowStore = QuestionStore & { slow: boolean };

/** Options of {@link createSlowStore}. */
export interface SlowStoreOptions {
  /** How long each slowed write waits before it is carried out. */
  delayMs: number;
  /** The store underneath (default: a fresh memory store). */
  store?: QuestionStore;
  /** Slow from the start (default false). */
  slow?: boolean;
  /** Which writes wait (default both: record updates and dedupe keys). */
  writes?: ReadonlyArray<"compareAndSet" | "firstSeen">;
}

/**
 * A store that is slow to write — as SQLite is while another connection holds its write lock — for
 * tests that a tap is still acknowledged in time and its answer recorded afterwards. Reads stay fast, so
 * a test can see that nothing was recorded yet.
 *
 * @example
 * const store = createSlowStore({ delayMs: 4_000 });
 * store.slow = true; // from now on every compareAndSet and firstSeen waits 4 s
 */
export function createSlowStore(options: SlowStoreOptions): SlowStore {
  const inner = options.store ?? createMemoryStore();
  const writes = new Set(options.writes ?? ["compareAndSet", "firstSeen"]);
  const later = async <T>(write: "compareAndSet" | "firstSeen", work: () => Promise<T>): Promise<T> => {
    if (wrapped.slow && writes.has(write))
      await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    return work();
  };
  const wrapped: SlowStore = {
    ...inner,
    slow: options.slow ?? false,
    compareAndSet: (expected, next) => later("compareAndSet", () => inner.compareAndSet(expected, next)),
    firstSeen: (key: string, ttlMs: number) =>
      later("firstSeen", () => (inner as Coordination).firstSeen(key, ttlMs)),
  };
  return wrapped;
}
