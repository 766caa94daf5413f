// Builds the gateway before the repository's `pnpm start` / `pnpm ask` / `pnpm ask-user` run it, without
// the task runner's chatter: its output is captured and shown only when the build fails.
import { spawn } from "node:child_process";

/** The most of the build's output kept to show on failure (its end, where the errors are). */
const KEEP_CHARS = 200_000;

/**
 * Runs `command args` with its output captured. Says "building the gateway (first start, ~30 s)…" at
 * once on a first start, or "building the gateway…" once it has taken `slowMs`; prints the captured
 * output only when it fails. Resolves with its exit code (1 when it could not run or was killed).
 *
 * @param {string} command
 * @param {readonly string[]} args
 * @param {{ cwd?: string; stderr?: { write(text: string): unknown }; firstStart?: boolean; slowMs?: number }} [options]
 * @returns {Promise<number>}
 */
export function buildQuietly(command, args, options = {}) {
  const stderr = options.stderr ?? process.stderr;
  let told = false;
  const tell = (/** @type {string} */ line) => {
    if (told) return;
    told = true;
    stderr.write(`${line}\n`);
  };
  if (options.firstStart) tell("building the gateway (first start, ~30 s)…");
  const slow = setTimeout(() => tell("building the gateway…"), options.slowMs ?? 2_000);
  let output = "";
  const keep = (/** @type {Buffer} */ chunk) => {
    output = (output + chunk.toString("utf8")).slice(-KEEP_CHARS);
  };
  return new Promise((resolve) => {
    const child = spawn(command, [...args], {
      cwd: options.cwd,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, FORCE_COLOR: "0" },
    });
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.on("error", (error) => keep(Buffer.from(`${error.message}\n`)));
    child.on("close", (code) => {
      clearTimeout(slow);
      if (code === 0) return resolve(0);
      stderr.write(`${output}${output.endsWith("\n") || output === "" ? "" : "\n"}`);
      stderr.write(
        `The build failed (${command} ${args.join(" ")}): fix the errors above and run it again.\n`,
      );
      resolve(typeof code === "number" && code > 0 ? code : 1);
    });
  });
}
