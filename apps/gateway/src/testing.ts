/**
 * `@ask-user/gateway/testing`: a real `ask-user start` process for tests that need one (crash tests with
 * `kill -9`, clients talking to a gateway in another process). Free of any test framework: the caller
 * kills what it started (`kill9`) after each test.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const bin = fileURLToPath(new URL("../bin/ask-user.js", import.meta.url));

/** A running `ask-user start` process and its HTTP URL (read from the banner). */
export interface GatewayProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` */
  url: string;
}

/**
 * Runs `ask-user start` on a free loopback port (`ASK_USER_PORT=0`, warnings only in the log, then
 * `env`) and resolves once its banner shows the URL; rejects with everything it printed if it exits
 * first or takes longer than `timeoutMs` (default 30 s).
 *
 * @example
 * const gateway = await startGatewayProcess({ ASK_USER_DB: "/tmp/a.db" });
 * await fetch(`${gateway.url}/healthz`);
 * await kill9(gateway.child);
 */
export async function startGatewayProcess(
  env: Record<string, string>,
  options: { timeoutMs?: number } = {},
): Promise<GatewayProcess> {
  const child = spawn(process.execPath, [bin, "start"], {
    env: { ...process.env, ASK_USER_PORT: "0", ASK_USER_LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`gateway did not start:\n${output}`)),
        options.timeoutMs ?? 30_000,
      );
      child.stdout?.on("data", (chunk) => {
        output += chunk;
        const match = /HTTP API\s+(http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(output);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`gateway exited with ${code}:\n${output}`));
      });
    });
    return { child, url };
  } catch (error) {
    await kill9(child);
    throw error;
  }
}

/** Kills a process with SIGKILL and waits until it is gone (nothing when it already is). */
export async function kill9(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}
