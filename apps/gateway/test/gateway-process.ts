import type { ChildProcess } from "node:child_process";
import { afterEach } from "vitest";
import { type GatewayProcess, kill9, startGatewayProcess } from "../src/testing.ts";

export type { GatewayProcess } from "../src/testing.ts";

/**
 * Real gateway processes for crash tests: `start(env)` runs `ask-user start` on a free port with quick
 * repair claims (`ASK_USER_CLAIM_SECONDS=1`) and resolves once the banner shows its URL; `kill9` kills it
 * the hard way. Every process still running after a test is killed.
 */
export function gatewayProcesses() {
  const children: ChildProcess[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) await kill9(child);
  });

  async function start(env: Record<string, string>): Promise<GatewayProcess> {
    const gateway = await startGatewayProcess({ ASK_USER_CLAIM_SECONDS: "1", ...env }, { timeoutMs: 20_000 });
    children.push(gateway.child);
    return gateway;
  }

  return { start, kill9 };
}
