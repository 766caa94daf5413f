import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach } from "vitest";

const bin = fileURLToPath(new URL("../bin/ask-user.js", import.meta.url));

/** A real `ask-user start` process and its HTTP URL (read from the banner). */
export interface GatewayProcess {
  child: ChildProcess;
  url: string;
}

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
    const child = spawn(process.execPath, [bin, "start"], {
      env: {
        ...process.env,
        ASK_USER_PORT: "0",
        ASK_USER_LOG_LEVEL: "warn",
        ASK_USER_CLAIM_SECONDS: "1",
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    let output = "";
    child.stderr?.on("data", (chunk) => {
      output += chunk;
    });
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`gateway did not start:\n${output}`)), 20_000);
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

  return { start, kill9 };
}

/** Kills a gateway process with SIGKILL and waits until it is gone (nothing when it already is). */
export async function kill9(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}
