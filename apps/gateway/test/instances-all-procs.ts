/**
 * Real gateway processes for instances-all.test.ts: `ask-user start` as a child process, kill -9, the
 * holders of the shared leases (read from the real redis-server), and asks whose HTTP request stays open
 * for as long as a person takes (a takeover included).
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const bin = fileURLToPath(new URL("../bin/ask-user.js", import.meta.url));
const run = promisify(execFile);
const children: ChildProcess[] = [];

/** One running gateway process. */
export interface Instance {
  /** `ASK_USER_INSTANCE_ID`: its name in the leases and claims. */
  id: string;
  child: ChildProcess;
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** The banner's "Channels" line: each channel's `describe`. */
  channels: string;
}

/** `ask-user start` with `env` as instance `id`; resolves once the banner is out. */
export async function startInstance(id: string, env: Record<string, string>): Promise<Instance> {
  const child = spawn(process.execPath, [bin, "start"], {
    env: {
      ...process.env,
      ASK_USER_PORT: "0",
      ASK_USER_LOG_LEVEL: "warn",
      ASK_USER_CLAIM_SECONDS: "1",
      ASK_USER_INSTANCE_ID: id,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  return new Promise<Instance>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${id} did not start:\n${output}`)), 30_000);
    child.stdout?.on("data", (chunk) => {
      output += chunk;
      const url = /HTTP API\s+(http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(output)?.[1];
      const channels = /Channels\s+(.*)\n/.exec(output)?.[1];
      if (url && channels) {
        clearTimeout(timer);
        resolve({ id, child, url, channels });
      }
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${id} exited (${code ?? signal}):\n${output}`));
    });
  });
}

/** SIGKILL: no goodbye to Redis, the platforms or anyone. Resolves once the process is gone. */
export async function kill9(instance: Instance): Promise<void> {
  const { child } = instance;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}

/** Kills every process started here (after each test). */
export async function killAll(): Promise<void> {
  for (const child of children.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  }
}

/**
 * Who holds the Telegram polling lease and the Discord gateway lease right now, as the store says
 * (`…lease:<name>` keys whose value is the holder's instance id; undefined when nobody does).
 */
export async function leaseHolders(redisUrl: string): Promise<{ telegram?: string; discord?: string }> {
  const script =
    "local r = {} for _, k in ipairs(redis.call('KEYS', '*lease:*')) do " +
    "r[#r + 1] = k r[#r + 1] = redis.call('GET', k) or '' end return r";
  const { stdout } = await run("redis-cli", ["-u", redisUrl, "--raw", "EVAL", script, "0"]);
  const lines = stdout.replace(/\n$/, "").split("\n");
  const holders: { telegram?: string; discord?: string } = {};
  for (let i = 0; i + 1 < lines.length; i += 2) {
    const name = decodeURIComponent(lines[i] ?? "");
    const holder = lines[i + 1] ?? "";
    if (holder === "") continue;
    if (/telegram:\d+:polling$/.test(name)) holders.telegram = holder;
    if (/discord:\d+:gateway$/.test(name)) holders.discord = holder;
  }
  return holders;
}

/** The body `POST /v1/ask` answers with. */
export interface AskResult {
  status: string;
  answers?: { answers: Record<string, string[]> };
  reason?: string;
}

/**
 * `POST /v1/ask` on `url`: resolves with the result once someone answers — through whichever instance.
 * Closing the request would cancel the question (SPEC §4), so it stays open up to `timeoutMs`.
 */
export async function ask(url: string, body: unknown, timeoutMs = 60_000): Promise<AskResult> {
  const response = await fetch(`${url}/v1/ask`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`/v1/ask answered ${response.status}: ${text}`);
  return JSON.parse(text) as AskResult;
}
