import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Clock } from "@ask-user/core";
import { type RunningGateway, startGateway } from "@ask-user/gateway";
import { pino } from "pino";
import { afterEach } from "vitest";

const running: RunningGateway[] = [];
const children: ChildProcess[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const gateway of running.splice(0)) await gateway.close();
  for (const child of children.splice(0)) await kill9(child);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh folder for a gateway's database, removed after the test. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "ask-user-client-"));
  dirs.push(dir);
  return dir;
}

/** A real gateway in this process on a free loopback port with a fresh database; closed after the test. */
export async function inProcessGateway(
  env: Record<string, string> = {},
  clock?: Clock,
): Promise<RunningGateway> {
  const gateway = await startGateway({
    env: { ASK_USER_PORT: "0", ASK_USER_DB: join(tempDir(), "ask-user.db"), ...env },
    logger: pino({ level: "silent" }),
    plugins: [],
    ...(clock ? { clock } : {}),
  });
  running.push(gateway);
  return gateway;
}

const bin = join(createRequire(import.meta.url).resolve("@ask-user/gateway"), "../../bin/ask-user.js");

/** A real `ask-user start` process; resolves with its URL once the banner shows it. Killed after the test. */
export async function gatewayProcess(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [bin, "start"], {
    env: { ...process.env, ASK_USER_PORT: "0", ASK_USER_LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gateway did not start:\n${output}`)), 30_000);
    child.stdout?.on("data", (chunk) => {
      output += chunk;
      const match = /HTTP API\s+(http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once("exit", (code) => reject(new Error(`gateway exited with ${code}:\n${output}`)));
  });
  return { child, url };
}

/** Kills a process with SIGKILL and waits until it is gone. */
export async function kill9(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}

export const deployInput = {
  questions: [
    {
      id: "deploy_target",
      header: "Deploy",
      question: "Where should I deploy?",
      options: [{ label: "Staging (Recommended)", description: "Safe" }, { label: "Production" }],
    },
  ],
};

/** Polls `check` every 20 ms until it returns a value (not undefined) or `timeoutMs` passes. */
export async function until<T>(
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
