/**
 * The gateway's benchmarks (`pnpm bench`): each figure beside its baseline and its goal, in one run,
 * the machine's load printed at the start and end of every section. A full run writes the report to
 * `results/latest.txt`; naming sections runs only those (and writes nothing):
 *
 *   pnpm --filter @ask-user/bench-gateway bench -- waiters --waiters=10000
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os, { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CODE_UNDER_TEST } from "./children.ts";
import { httpSection } from "./http.ts";
import { longPollFigures } from "./long-poll.ts";
import { load } from "./machine.ts";
import { mcpFigures } from "./mcp.ts";
import { profileFigures } from "./profile.ts";
import { reloadFigures } from "./reload.ts";
import { print, printed } from "./report.ts";
import { routingSection } from "./routing.ts";
import { scaleFigures } from "./scale.ts";
import { sqliteFigures } from "./sqlite.ts";
import { fmt } from "./stats.ts";

const CLIENTS = 16;
const CYCLES = 4_000;

const usage = `usage: run.ts [section …] [--waiters=N] [--mcp=N]
  sections: http, profile, scale, waiters (= long-poll and mcp), long-poll, mcp, sqlite, reload, routing
  --waiters=N  long-poll waiters at once (default 5,000)    --mcp=N  MCP sessions (default 10,000)`;

function parseArgs(argv: string[]) {
  const all = ["http", "profile", "scale", "long-poll", "mcp", "sqlite", "reload", "routing"];
  const chosen = new Set<string>();
  let waiters = 5_000;
  let mcp = 10_000;
  const count = (text: string | undefined, flag: string) => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} must be a whole number ≥ 1\n${usage}`);
    return n;
  };
  for (const arg of argv) {
    if (arg === "--") continue;
    const [flag, value] = arg.split("=", 2);
    if (flag === "--waiters") waiters = count(value, "--waiters");
    else if (flag === "--mcp") mcp = count(value, "--mcp");
    else if (arg === "waiters") for (const name of ["long-poll", "mcp"]) chosen.add(name);
    else if (all.includes(arg)) chosen.add(arg);
    else throw new Error(`unknown argument ${arg}\n${usage}`);
  }
  const sections = chosen.size === 0 ? all : all.filter((name) => chosen.has(name));
  return { sections, full: chosen.size === 0, waiters, mcp };
}

let args: ReturnType<typeof parseArgs>;
try {
  args = parseArgs(process.argv.slice(2));
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}

const dir = mkdtempSync(join(tmpdir(), "ask-user-bench-"));
const started = performance.now();
const cpu = os.cpus();
print(
  `# gateway benchmarks — ${new Date().toISOString()}${args.full ? "" : ` — sections: ${args.sections.join(", ")}`}`,
);
print(
  `# machine: ${cpu.length} × ${cpu[0]?.model}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; ${load()}`,
);
print(`# the gateway's code: ${CODE_UNDER_TEST}`);
print("");

const sections: Record<string, [string, () => Promise<void>]> = {
  http: ["HTTP create→answer, in process", () => httpSection(dir, CLIENTS, CYCLES)],
  profile: ["where the gateway's time goes, per route", () => profileFigures(dir, CLIENTS, CYCLES)],
  scale: ["scale-out over one redis-server", () => scaleFigures(CLIENTS, CYCLES)],
  "long-poll": [`long-poll waiters, ${fmt(args.waiters)} at once`, () => longPollFigures(dir, args.waiters)],
  mcp: [`MCP waiters, ${fmt(args.mcp)} sessions`, () => mcpFigures(args.mcp)],
  sqlite: ["the SQLite store", () => sqliteFigures(dir)],
  reload: ["reloading pending questions at start", () => reloadFigures(dir)],
  routing: ["reply routing", () => routingSection(dir)],
};

try {
  for (const name of args.sections) {
    const [title, work] = sections[name] as [string, () => Promise<void>];
    const start = performance.now();
    print(`## ${name}: ${title} — start: ${load()}`);
    await work();
    print(`## ${name} done in ${((performance.now() - start) / 1000).toFixed(0)} s — end: ${load()}`);
    print("");
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
print(`# ${((performance.now() - started) / 1000).toFixed(0)} s`);
if (args.full) writeFileSync(fileURLToPath(new URL("../results/latest.txt", import.meta.url)), printed());
