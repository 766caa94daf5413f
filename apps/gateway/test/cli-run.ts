import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterEach } from "vitest";
import { main } from "../src/cli/main.ts";
import type { FakeGateway } from "./cli-fake-gateway.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

export function inputFile(content: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), "ask-user-cli-"));
  dirs.push(dir);
  const file = join(dir, "input.json");
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
  return file;
}

export interface RunOptions {
  env?: Record<string, string>;
  stdin?: string;
  isTTY?: boolean;
  /** Receives the Ctrl-C trigger once `ask` listens for it. */
  onInterruptReady?: (press: () => void) => void;
  /** Sees stderr as it is written (to wait for a line while the command still runs). */
  onStderr?: (text: string) => void;
}

/** Runs `ask-user ARGV` and returns what the user sees. */
export async function run(argv: string[], options: RunOptions = {}) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: {
      write: (text: string) => {
        stderr += text;
        options.onStderr?.(stderr);
      },
    },
    stdin: Readable.from([options.stdin ?? ""]),
    env: options.env ?? {},
    isTTY: options.isTTY ?? false,
    onInterrupt(handler) {
      options.onInterruptReady?.(handler);
      return () => {};
    },
  });
  return { code, stdout, stderr };
}

/** Env pointing the CLI at the fake gateway. */
export function envFor(gw: FakeGateway, extra: Record<string, string> = {}) {
  return { ASK_USER_URL: gw.url, ...extra };
}

/** Creates a question directly on the fake gateway. */
export async function create(gw: FakeGateway, body: unknown): Promise<{ id: string }> {
  const response = await fetch(`${gw.url}/v1/questions`, { method: "POST", body: JSON.stringify(body) });
  return (await response.json()) as { id: string };
}
