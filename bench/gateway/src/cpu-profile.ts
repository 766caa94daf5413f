/**
 * A V8 CPU profile (node:inspector's `Profiler.stop`) summed up by self time: per package, per file and
 * per function, so that a report line can say where a process's own time goes.
 */
import { existsSync, readFileSync } from "node:fs";
import { findSourceMap } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** The parts of a `Profiler.Profile` the summary reads. */
export interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  }[];
  samples?: number[];
  timeDeltas?: number[];
}

/** Self time in µs, largest first. */
export type Ranked = { name: string; micros: number }[];

export interface ProfileSummary {
  /** Sampled time outside `(idle)`, in µs: what the thread spent running. */
  busyMicros: number;
  idleMicros: number;
  byPackage: Ranked;
  byFile: Ranked;
  byFunction: Ranked;
}

const packageNames = new Map<string, { name: string; root: string } | undefined>();

/** The package a file belongs to (the nearest package.json's name) and its root folder. */
function packageOf(file: string): { name: string; root: string } | undefined {
  const dir = dirname(file);
  if (packageNames.has(dir)) return packageNames.get(dir);
  let found: { name: string; root: string } | undefined;
  const manifest = join(dir, "package.json");
  if (existsSync(manifest)) {
    const name = (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name;
    found = name ? { name, root: dir } : undefined;
  }
  if (!found && dirname(dir) !== dir) found = packageOf(dir);
  packageNames.set(dir, found);
  return found;
}

/**
 * The 1-based line of a frame in its source: through the module's source map when the process has one
 * (tsx compiles the TypeScript sources with source maps), else the generated line.
 */
function lineOf(frame: CpuProfile["nodes"][number]["callFrame"]): number {
  try {
    const entry = findSourceMap(frame.url)?.findEntry(frame.lineNumber, frame.columnNumber);
    if (entry && "originalLine" in entry) return entry.originalLine + 1;
  } catch {
    // no source map: the generated line
  }
  return frame.lineNumber + 1;
}

/** Which package, file and function a frame is, for the report. */
function where(frame: CpuProfile["nodes"][number]["callFrame"]): { pkg: string; file: string; fn: string } {
  const name = frame.functionName || "(anonymous)";
  if (name.startsWith("(") && frame.url === "") return { pkg: name, file: name, fn: name };
  // No script: a native function (a C++ binding such as a socket's writev or a statement's get, or a
  // V8 built-in such as JSON.parse).
  if (frame.url === "") return { pkg: "(native)", file: "(native)", fn: `${name} (native)` };
  if (frame.url.startsWith("node:")) {
    const file = frame.url.replace(/^node:(internal\/)?/, "");
    return { pkg: "node", file: `node:${file}`, fn: `${name} node:${file}:${frame.lineNumber + 1}` };
  }
  const path = frame.url.startsWith("file:") ? fileURLToPath(frame.url) : frame.url;
  const owner = packageOf(path);
  const file = owner ? `${owner.name}/${relative(owner.root, path)}` : path;
  return { pkg: owner?.name ?? "(other)", file, fn: `${name} ${file}:${lineOf(frame)}` };
}

function ranked(totals: Map<string, number>): Ranked {
  return [...totals].map(([name, micros]) => ({ name, micros })).sort((a, b) => b.micros - a.micros);
}

/** Sums the self time of every sample (the time until the next sample) by package, file and function. */
export function summarise(profile: CpuProfile): ProfileSummary {
  const nodes = new Map(profile.nodes.map((node) => [node.id, where(node.callFrame)]));
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  const byPackage = new Map<string, number>();
  const byFile = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let busyMicros = 0;
  let idleMicros = 0;
  for (const [i, id] of samples.entries()) {
    const micros = deltas[i + 1] ?? 0;
    const at = nodes.get(id);
    if (!at || micros <= 0) continue;
    if (at.pkg === "(idle)") {
      idleMicros += micros;
      continue;
    }
    busyMicros += micros;
    byPackage.set(at.pkg, (byPackage.get(at.pkg) ?? 0) + micros);
    byFile.set(at.file, (byFile.get(at.file) ?? 0) + micros);
    byFunction.set(at.fn, (byFunction.get(at.fn) ?? 0) + micros);
  }
  return {
    busyMicros,
    idleMicros,
    byPackage: ranked(byPackage),
    byFile: ranked(byFile),
    byFunction: ranked(byFunction),
  };
}

/** `name 41% · name 12% · …` for the first `count` entries, as shares of `total`. */
export function shares(entries: Ranked, total: number, count: number): string {
  const shown = entries
    .slice(0, count)
    .map((e) => `${e.name} ${((e.micros / total) * 100).toFixed(total > 0 ? 1 : 0)}%`);
  const rest = entries.slice(count).reduce((sum, e) => sum + e.micros, 0);
  if (rest > 0) shown.push(`the rest ${((rest / total) * 100).toFixed(1)}%`);
  return shown.join(" · ");
}
