import { PassThrough } from "node:stream";
import { stripVTControlCharacters } from "node:util";
import { main } from "../src/cli/main.ts";

/** Keys as a terminal sends them. */
export const KEY = {
  up: "\x1b[A",
  down: "\x1b[B",
  space: " ",
  enter: "\r",
  escape: "\x1b",
} as const;

/**
 * A terminal for `ask-user` in this process: the prompts read keys from `press` and draw on a screen
 * whose text (without escape codes) `waitFor` searches, each time after the previous match.
 */
export function fakeTerminal() {
  const input = new PassThrough();
  const output = new PassThrough();
  let screen = "";
  let seen = 0;
  output.on("data", (chunk) => {
    screen += stripVTControlCharacters(String(chunk));
  });
  return {
    input,
    output,
    /** Everything drawn so far, as text. */
    screen: () => screen,
    /** Resolves once `text` is drawn after the previous match; fails after 10 s with the screen. */
    async waitFor(text: string): Promise<void> {
      for (let i = 0; i < 400; i++) {
        const at = screen.indexOf(text, seen);
        if (at >= 0) {
          seen = at + text.length;
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error(`"${text}" was not drawn; the screen:\n${screen.slice(seen)}`);
    },
    /** Types keys, one write each (as a person would, not one paste). */
    async press(...keys: string[]): Promise<void> {
      for (const key of keys) {
        input.write(key);
        await new Promise((resolve) => setTimeout(resolve, 15));
      }
    },
  };
}

/** Runs `ask-user ARGV` with `terminal` as the interactive terminal; stdout/stderr captured. */
export async function runInTerminal(
  argv: string[],
  terminal: ReturnType<typeof fakeTerminal>,
  env: Record<string, string>,
) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    stdin: terminal.input,
    env,
    isTTY: true,
    terminal: { input: terminal.input, output: terminal.output },
  });
  return { code, stdout, stderr };
}
