import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Clock } from "@ask-user/core";
// The gateway by path, not as a package: it depends on this client (its CLI and `ask-user mcp` talk
// through it), so a dependency back would be a cycle in the package graph (turbo refuses one).
import { type RunningGateway, startGateway } from "../../../apps/gateway/src/index.ts";
import { type GatewayProcess, kill9, startGatewayProcess } from "../../../apps/gateway/src/testing.ts";

export { kill9 };

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

/** A real `ask-user start` process; resolves with its URL once the banner shows it. Killed after the test. */
export async function gatewayProcess(env: Record<string, string>): Promise<GatewayProcess> {
  const gateway = await startGatewayProcess(env);
  children.push(gateway.child);
  return gateway;
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
