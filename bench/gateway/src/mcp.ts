/**
 * The MCP waiter figures come from `src/mcp-waiters.ts` (a standalone script of the MCP work): run as a
 * child process with N sessions, its output printed as it comes, indented under a heading.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { spawnNode } from "./children.ts";
import { print } from "./report.ts";
import { fmt } from "./stats.ts";

const TIMEOUT_MS = 8 * 60_000;

/** Runs `mcp-waiters.ts <count>` and prints what it prints; a note instead when it is not there. */
export async function mcpFigures(count: number): Promise<void> {
  const script = fileURLToPath(new URL("mcp-waiters.ts", import.meta.url));
  if (!existsSync(script)) {
    print("MCP waiters: skipped — src/mcp-waiters.ts is not there (it comes with the MCP waiter work)");
    return;
  }
  print(
    `MCP waiters: src/mcp-waiters.ts ${count} (its own output; goal ≤ 32 KB per MCP session, p99 ≤ 50 ms):`,
  );
  const child = spawnNode([script, String(count)], { cwd: fileURLToPath(new URL("..", import.meta.url)) });
  let pending = "";
  const onData = (chunk: Buffer) => {
    pending += chunk.toString();
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) print(`  ${line}`);
  };
  child.child.stdout?.on("data", onData);
  child.child.stderr?.on("data", onData);
  const timer = setTimeout(() => void child.kill(), TIMEOUT_MS);
  // "close": exited, and everything it printed has been read.
  const code = await new Promise<number | null>((resolve) => child.child.once("close", resolve));
  clearTimeout(timer);
  if (pending) print(`  ${pending}`);
  if (code !== 0) {
    print(
      `  (mcp-waiters.ts ${code === null ? `was stopped after ${fmt(TIMEOUT_MS / 1000)} s` : `exited with ${code}`})`,
    );
  }
}
