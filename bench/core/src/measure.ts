import os from "node:os";

/** Runs `fn` repeatedly for about `ms` milliseconds (after a warm-up) and returns operations per second. */
export async function opsPerSecond(fn: () => unknown | Promise<unknown>, ms = 1500): Promise<number> {
  const deadline = (d: number) => performance.now() + d;
  for (let end = deadline(200); performance.now() < end; ) await fn();
  let count = 0;
  const start = performance.now();
  const end = start + ms;
  while (performance.now() < end) {
    for (let i = 0; i < 100; i++) await fn();
    count += 100;
  }
  return count / ((performance.now() - start) / 1000);
}

/** Synchronous variant (no await per call: measures the function, not the event loop). */
export function opsPerSecondSync(fn: () => unknown, ms = 1500): number {
  for (let end = performance.now() + 200; performance.now() < end; ) fn();
  let count = 0;
  const start = performance.now();
  const end = start + ms;
  while (performance.now() < end) {
    for (let i = 0; i < 1000; i++) fn();
    count += 1000;
  }
  return count / ((performance.now() - start) / 1000);
}

export function gc(): void {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) throw new Error("run with node --expose-gc");
  collect();
  collect();
}

export function machine(): string {
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  return `${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}`;
}

/** One line of the report: name, figure, and the figure as a ratio of its baseline (and a note). */
export function row(
  name: string,
  value: number,
  unit: string,
  baseline?: { name: string; value: number },
  note?: string,
): string {
  const figure = `${Math.round(value).toLocaleString("en-US")} ${unit}`;
  const ratio = baseline
    ? `   (${(value / baseline.value).toFixed(2)}× ${baseline.name}${note ? `; ${note}` : ""})`
    : note
      ? `   (${note})`
      : "";
  return `${name.padEnd(48)} ${figure.padStart(16)}${ratio}`;
}
