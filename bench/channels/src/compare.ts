/**
 * The comparison: taps made one at a time, alternating between the product and the bare SDK (ABBA, so
 * that neither side always goes first while the disk's fsync time drifts), each timed from the moment
 * the fake sends it to the moment `ask()` — bare: the handler's waiting promise — resolves.
 */
import type { Platform, Side } from "./side.ts";
import { within } from "./side.ts";
import { spentBetween } from "./spans.ts";

/** What one side measured over the counted taps. */
export interface Measured {
  /** Tap → resolved, ms, one per tap. */
  latencies: number[];
  /** Per store call name (`firstSeen`, `compareAndSet`, bare `write`, …): ms spent in it, one per tap. */
  spent: Map<string, number[]>;
  /** Per tap: the latency less the time in store calls (SDK, fake, channel and broker code, hops). */
  rest: number[];
  /** Durable writes, and the transactions holding them, per round (prompt, tap and summary). */
  writesPerRound: number;
  transactionsPerRound: number;
}

/** One tap on `side`: when it was sent and when `ask()` resolved (`performance.now()`). */
async function tapOnce(side: Side, what: string): Promise<{ start: number; end: number }> {
  const round = await side.next();
  const start = performance.now();
  round.tap();
  const end = await within(round.resolved, `${what}: ask() after a tap`);
  await within(round.settle(), `${what}: the tap's aftermath`);
  return { start, end };
}

type Commits = ReturnType<Side["commits"]>;

function measured(side: Side, taps: Array<{ start: number; end: number }>, before: Commits): Measured {
  const latencies: number[] = [];
  const rest: number[] = [];
  const spent = new Map<string, number[]>();
  const perTap = taps.map(({ start, end }) => spentBetween(side.spans, start, end));
  const names = new Set(perTap.flatMap((map) => [...map.keys()]));
  taps.forEach(({ start, end }, i) => {
    const calls = perTap[i] ?? new Map<string, number>();
    let inStore = 0;
    for (const name of names) {
      const ms = calls.get(name) ?? 0;
      inStore += ms;
      spent.set(name, [...(spent.get(name) ?? []), ms]);
    }
    latencies.push(end - start);
    rest.push(end - start - inStore);
  });
  const after = side.commits();
  return {
    latencies,
    spent,
    rest,
    writesPerRound: (after.writes - before.writes) / taps.length,
    transactionsPerRound: (after.transactions - before.transactions) / taps.length,
  };
}

/** `warmUp` then `taps` taps on each side of `platform`, interleaved. */
export async function compare(
  platform: Platform,
  warmUp: number,
  taps: number,
): Promise<{ product: Measured; bare: Measured }> {
  const sides = [
    {
      side: platform.product,
      what: `${platform.title} product`,
      taps: [] as Array<{ start: number; end: number }>,
    },
    {
      side: platform.bare,
      what: `${platform.title} bare`,
      taps: [] as Array<{ start: number; end: number }>,
    },
  ];
  let commits: Commits[] = [];
  for (let i = 0; i < warmUp + taps; i++) {
    if (i === warmUp) commits = sides.map(({ side }) => side.commits());
    const order = i % 4 === 0 || i % 4 === 3 ? sides : [...sides].reverse();
    for (const entry of order) {
      const tap = await tapOnce(entry.side, entry.what);
      if (i >= warmUp) entry.taps.push(tap);
    }
  }
  const [product, bare] = sides.map((entry, i) =>
    measured(entry.side, entry.taps, commits[i] ?? { writes: 0, transactions: 0 }),
  );
  if (!product || !bare) throw new Error("two sides expected");
  return { product, bare };
}
