/**
 * Where a tap's time goes: each side records its durable-store calls as spans (the product through a
 * timing wrapper around its SQLite store, the bare side around its one write), and the spans that start
 * between a tap and `ask()` resolving are summed per call.
 */

/** One store call: its method and when it ran (`performance.now()`). */
export interface Span {
  name: string;
  start: number;
  end: number;
}

/**
 * `target` with every method that returns a promise timed into `spans` (from the call to the moment its
 * promise settles); other members are passed through. Costs about a microsecond a call.
 */
export function timed<T extends object>(target: T, spans: Span[]): T {
  return new Proxy(target, {
    get(object, key, receiver) {
      const value: unknown = Reflect.get(object, key, receiver);
      if (typeof value !== "function" || typeof key !== "string") return value;
      return (...args: unknown[]) => {
        const start = performance.now();
        const result: unknown = value.apply(object, args);
        if (!(result instanceof Promise)) return result;
        return result.finally(() => spans.push({ name: key, start, end: performance.now() }));
      };
    },
  });
}

/** Store upkeep on timers (the polling or gateway lease): never on a tap's path, though it may overlap one. */
const UPKEEP = new Set(["acquireLease", "releaseLease", "prune"]);

/** Milliseconds spent per call name in the spans that started within `[from, to)`, upkeep left out. */
export function spentBetween(spans: readonly Span[], from: number, to: number): Map<string, number> {
  const spent = new Map<string, number>();
  for (const span of spans) {
    if (span.start < from || span.start >= to || UPKEEP.has(span.name)) continue;
    spent.set(span.name, (spent.get(span.name) ?? 0) + (Math.min(span.end, to) - span.start));
  }
  return spent;
}
