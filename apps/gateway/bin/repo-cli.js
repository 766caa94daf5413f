#!/usr/bin/env node
// The repository's `pnpm start`, `pnpm ask` and `pnpm ask-user`: builds what the gateway needs (turbo,
// cached; its output shown only on failure), then runs the `ask-user` command in this process, so the
// terminal shows only the command's own output and the exit code is the command's.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildQuietly } from "./build-quietly.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const turbo = fileURLToPath(new URL("../../../node_modules/.bin/turbo", import.meta.url));
const built = existsSync(new URL("../dist/cli/main.js", import.meta.url));
const code = await buildQuietly(
  turbo,
  ["run", "build", "--filter=@ask-user/gateway...", "--output-logs=errors-only", "--log-prefix=none"],
  { cwd: root, firstStart: !built },
);
if (code !== 0) {
  process.exitCode = code;
} else {
  // Hints then print `pnpm ask-user …`: the bare `ask-user` is not on the PATH in the repository.
  process.env.ASK_USER_VIA_PNPM = "1";
  await import("./ask-user.js");
}
