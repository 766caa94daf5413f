/** Small helpers the gateway benchmarks share. */

/** The `p`th percentile (0-100) of `values` (nearest rank). */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
}

/** A number for the report: thousands separated, `digits` decimals. */
export function fmt(n: number, digits = 0): string {
  return n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** One line of the report: name, figure, then the baseline and ratio in parentheses. */
export function row(name: string, value: number, unit: string, extra = "", digits = 0): string {
  return `${name.padEnd(52)} ${`${fmt(value, digits)} ${unit}`.padStart(16)}${extra}`;
}

/** Runs `work` with `concurrency` callers until `count` calls are done; returns calls per second. */
export async function rate(
  count: number,
  concurrency: number,
  work: (i: number) => Promise<void>,
): Promise<number> {
  const start = performance.now();
  await pool(count, concurrency, work);
  return count / ((performance.now() - start) / 1000);
}

/** Runs `work(i)` for i < count with `concurrency` callers. */
export async function pool(
  count: number,
  concurrency: number,
  work: (i: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(count, concurrency) }, async () => {
      while (next < count) await work(next++);
    }),
  );
}
