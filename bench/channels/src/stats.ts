/** Small helpers of the report. */

/** The `p`th percentile (0-100) of `values` (nearest rank). */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
}

/** A number for the report: thousands separated, `digits` decimals. */
export function fmt(n: number, digits = 0): string {
  return n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** Milliseconds with two decimals: `1.23 ms`. */
export function ms(value: number): string {
  return `${fmt(value, 2)} ms`;
}
