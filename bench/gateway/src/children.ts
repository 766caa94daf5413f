/**
 * The processes the benchmarks measure apart from the load generator: Node scripts and `ask-user
 * start`, each started through `sh -c 'ulimit -n $(ulimit -Hn); exec node …'` so that it may hold as
 * many sockets as the hard open-file limit allows, running the same code as the bench (sources or dist).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { kill9 } from "@ask-user/gateway/testing";

/**
 * True when the bench runs the workspace's TypeScript sources (`--conditions=source`, `pnpm bench`);
 * false when it runs the built `dist/` folders, as `ask-user start` does (`pnpm bench:dist`).
 */
export const ON_SOURCES = import.meta.resolve("@ask-user/gateway").includes("/src/");

/** Which code the gateway runs in this bench, for the report. */
export const CODE_UNDER_TEST = ON_SOURCES
  ? "the TypeScript sources through tsx (pnpm bench)"
  : "the built dist/ folders, as ask-user start runs (pnpm bench:dist)";

/**
 * `NODE_OPTIONS` that make a child run the same code as the bench itself: the sources or the built
 * `dist/` (tsx in both, for the bench's own scripts).
 */
export const SOURCE_NODE_OPTIONS = `${ON_SOURCES ? "--conditions=source " : ""}--import=${import.meta.resolve("tsx")}`;

/** `ask-user`'s bin, beside the gateway's `src/` (or `dist/`) that `@ask-user/gateway/testing` is in. */
const gatewayBin = fileURLToPath(
  new URL("../bin/ask-user.js", import.meta.resolve("@ask-user/gateway/testing")),
);
const RAISE_LIMIT = 'ulimit -n "$(ulimit -Hn)" 2>/dev/null; exec "$0" "$@"';

/** A child process started by a benchmark, and everything it printed so far. */
export interface Child {
  child: ChildProcess;
  pid: number;
  output(): string;
  /** SIGKILL, then waits until it is gone. */
  kill(): Promise<void>;
}

/** Starts `node <args>` (sources via tsx) with the soft open-file limit raised to the hard one. */
export function spawnNode(
  args: string[],
  options: { env?: Record<string, string>; cwd?: string; ipc?: boolean } = {},
): Child {
  const child = spawn("sh", ["-c", RAISE_LIMIT, process.execPath, ...args], {
    env: { ...process.env, NODE_OPTIONS: SOURCE_NODE_OPTIONS, ...options.env },
    stdio: options.ipc ? ["ignore", "pipe", "pipe", "ipc"] : ["ignore", "pipe", "pipe"],
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  if (child.pid === undefined) throw new Error(`could not start node ${args.join(" ")}`);
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  return { child, pid: child.pid, output: () => output, kill: () => kill9(child) };
}

/** Resolves with the first match of `pattern` in what `child` prints; rejects if it exits first. */
export function waitForOutput(
  child: Child,
  pattern: RegExp,
  what: string,
  timeoutMs = 60_000,
): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = pattern.exec(child.output());
      if (!match) return;
      done();
      resolve(match);
    };
    const failed = (reason: string) => {
      done();
      reject(new Error(`${what} ${reason}:\n${child.output()}`));
    };
    const timer = setTimeout(() => failed(`did not start within ${timeoutMs} ms`), timeoutMs);
    const onExit = (code: number | null) => failed(`exited (${code})`);
    const done = () => {
      clearTimeout(timer);
      child.child.stdout?.off("data", check);
      child.child.off("exit", onExit);
    };
    child.child.stdout?.on("data", check);
    child.child.once("exit", onExit);
    check();
  });
}

/**
 * `node <args>` (as {@link spawnNode}) that prints `HTTP API  http://127.0.0.1:<port>/v1` once it
 * listens; resolves with that URL (killed if it exits or stays silent first).
 */
export async function startServerChild(
  args: string[],
  what: string,
  options: { env?: Record<string, string> } = {},
): Promise<Child & { url: string }> {
  const child = spawnNode(args, options);
  try {
    const match = await waitForOutput(child, /HTTP API\s+(http:\/\/127\.0\.0\.1:\d+)\/v1/, what);
    return { ...child, url: match[1] as string };
  } catch (error) {
    await child.kill();
    throw error;
  }
}

/** `ask-user start` on a free loopback port with `env`; resolves with its URL once the banner shows it. */
export function startGatewayChild(env: Record<string, string>): Promise<Child & { url: string }> {
  return startServerChild([gatewayBin, "start"], "the gateway", {
    env: { ASK_USER_PORT: "0", ASK_USER_LOG_LEVEL: "warn", ...env },
  });
}
