/**
 * Tap → `ask()` latency per platform (`pnpm bench`): through the product beside the bare SDK handling the
 * same tap with one raw durable write, p50 and p99. Results go to `results/latest.txt`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os, { tmpdir } from "node:os";
import { join } from "node:path";
import { compare, type Measured } from "./compare.ts";
import { discord } from "./discord.ts";
import type { Platform } from "./side.ts";
import { slack } from "./slack.ts";
import { fmt, ms, percentile } from "./stats.ts";
import { telegram } from "./telegram.ts";

const WARM_UP = 50;
const TAPS = 500;
const GOAL_MS = 1;
const NAME = 40;
const indent = "".padEnd(NAME + 12);
const dir = mkdtempSync(join(tmpdir(), "ask-user-bench-channels-"));
const started = performance.now();

const p50 = (values: readonly number[]) => percentile(values, 50);
const p99 = (values: readonly number[]) => percentile(values, 99);

/** `firstSeen 0.95, compareAndSet 1.02, …, the rest 1.80 ms`: medians per tap. */
function breakdown(side: Measured): string {
  const calls = [...side.spent].map(([name, values]) => `${name} ${fmt(p50(values), 2)}`);
  return [...calls, `the rest ${ms(p50(side.rest))}`].join(", ");
}

async function measure(open: (dir: string) => Promise<Platform>): Promise<void> {
  const platform = await open(dir);
  try {
    const { product, bare } = await compare(platform, WARM_UP, TAPS);
    const [product50, bare50] = [p50(product.latencies), p50(bare.latencies)];
    const [product99, bare99] = [p99(product.latencies), p99(bare.latencies)];
    const added = product50 - bare50;
    console.log(
      `${`${platform.title}, p50`.padEnd(NAME)} ${ms(product50).padStart(11)}   (bare ${platform.sdk} + one raw durable write: ${ms(bare50)}; ratio ${(product50 / bare50).toFixed(2)}; product adds ${ms(added)} at p50; goal ≤ ${GOAL_MS} ms)`,
    );
    console.log(
      `${"p99".padStart(NAME)} ${ms(product99).padStart(11)}   (bare: ${ms(bare99)}; ratio ${(product99 / bare99).toFixed(2)})`,
    );
    console.log(
      `${indent} where the time goes, medians per tap in ms: product ${breakdown(product)}; bare ${breakdown(bare)}`,
    );
    console.log(
      `${indent} durable writes per round (prompt, tap, summary): product ${fmt(product.writesPerRound, 1)} in ${fmt(product.transactionsPerRound, 1)} transactions, bare ${fmt(bare.writesPerRound, 1)}`,
    );
    const mark = p50(product.spent.get("firstSeen") ?? []);
    if (added > GOAL_MS && mark > 0) {
      const answer = p50(product.spent.get("compareAndSet") ?? []);
      const write = p50(bare.spent.get("write") ?? []);
      console.log(
        `${indent} why above ${GOAL_MS} ms: before the answer's durable commit (compareAndSet ${ms(answer)} through the writer thread; the bare write ${ms(write)}) the tap's dedupe mark makes one of its own (firstSeen ${ms(mark)}): a second fsync on the tap's path that the bare SDK does not pay`,
      );
    }
  } finally {
    await platform.product.close();
    await platform.bare.close();
  }
}

console.log(`# channel benchmarks — ${new Date().toISOString()}`);
console.log(
  `# machine: ${os.cpus().length} × ${os.cpus()[0]?.model}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; load average ${os.loadavg()[0]?.toFixed(2)}`,
);
console.log(
  `# tap → ask() resolved: ${TAPS} taps per side one at a time after ${WARM_UP} warm-up taps, product and bare SDK alternating, each on its own fake over 127.0.0.1`,
);
console.log("");
try {
  for (const platform of [telegram, discord, slack]) await measure(platform);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log("");
console.log(`# ${((performance.now() - started) / 1000).toFixed(0)} s`);
