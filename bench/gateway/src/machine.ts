/**
 * What the benchmarks read about the machine and about the processes they start: load, cores, a
 * process's resident memory, CPU time, open files and open-file limit (from /proc, Linux only).
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import { fmt } from "./stats.ts";

/** Clock ticks per second of /proc/<pid>/stat's CPU times. */
const TICKS = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;

/** `load average 1.20 0.90 0.55 (1, 5, 15 min) on 2 cores`. */
export function load(): string {
  const [one, five, fifteen] = os.loadavg().map((value) => value.toFixed(2));
  return `load average ${one} ${five} ${fifteen} (1, 5, 15 min) on ${os.cpus().length} cores`;
}

/** The machine's CPU times so far (all cores, from /proc/stat), for {@link coresBusy}. */
export function cpuTimes(): { busy: number; total: number } {
  const fields = (readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "")
    .trim()
    .split(/\s+/)
    .slice(1, 9)
    .map(Number);
  const total = fields.reduce((sum, n) => sum + n, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0); // idle + iowait
  return { busy: total - idle, total };
}

/** How many of the machine's cores were busy, on average, since `since` (from every process). */
export function coresBusy(since: { busy: number; total: number }): number {
  const now = cpuTimes();
  const total = now.total - since.total;
  return total > 0 ? ((now.busy - since.busy) / total) * os.cpus().length : 0;
}

/** Resident memory of process `pid`, in bytes. */
export function rssBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!match?.[1]) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) * 1024;
}

/**
 * User + system CPU time process `pid` has used so far, in microseconds: every thread, or only thread
 * `tid` (the main thread's id is the process's).
 */
export function cpuMicros(pid: number, tid?: number): number {
  const stat = readFileSync(
    tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`,
    "utf8",
  );
  // The fields after the command name (which may hold spaces) in parentheses: utime is the 12th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / TICKS;
}

/** How many files (sockets included) process `pid` has open. */
export function openFiles(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

/** The soft open-file limit of process `pid` (`unlimited` as Infinity). */
export function openFileLimit(pid: number | "self"): number {
  const line = readFileSync(`/proc/${pid}/limits`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("Max open files"));
  const soft = line?.split(/\s{2,}/)[1];
  return soft === "unlimited" ? Number.POSITIVE_INFINITY : Number(soft);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until process `pid` is (nearly) idle — at most 2% of one core over the last `quietMs`, so a
 * housekeeping timer does not count — and `ready()` holds: it has handled everything sent to it. Gives up
 * after `timeoutMs` with an error saying what it waited for.
 */
export async function settled(
  pid: number,
  what: string,
  ready: () => boolean = () => true,
  { quietMs = 500, timeoutMs = 60_000 } = {},
): Promise<void> {
  const start = performance.now();
  const samples: { at: number; cpu: number }[] = [{ at: start, cpu: cpuMicros(pid) }];
  while (performance.now() - start < timeoutMs) {
    await pause(100);
    const now = { at: performance.now(), cpu: cpuMicros(pid) };
    samples.push(now);
    while (samples.length > 2 && now.at - (samples[1]?.at ?? now.at) >= quietMs) samples.shift();
    const first = samples[0] ?? now;
    const window = now.at - first.at;
    if (window >= quietMs && now.cpu - first.cpu <= window * 1000 * 0.02 && ready()) return;
  }
  const last = samples.at(-1);
  const first = samples[0];
  const cpu = last && first ? ((last.cpu - first.cpu) / 1000 / (last.at - first.at)) * 100 : Number.NaN;
  throw new Error(
    `${what}: not settled within ${fmt(timeoutMs)} ms (${fmt(cpu, 1)}% of a core over the last ${fmt(quietMs)} ms; ready: ${ready()}, ${openFiles(pid)} files open)`,
  );
}
