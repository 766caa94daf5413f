import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { webDistDir } from "../http/static.ts";
import { check, type DoctorCheck, errorCode, errorMessage } from "./doctor-check.ts";

/** The oldest Node.js the repository supports (its root `package.json` `engines`). */
const MIN_NODE: readonly [number, number] = [20, 11];
/** How long `pnpm --version` may take. */
const PNPM_TIMEOUT_MS = 10_000;

/**
 * The repository's root when this gateway runs from a checkout (`apps/gateway/src/cli` and
 * `apps/gateway/dist/cli` are both four levels below it), else undefined (an installed package).
 */
export function repositoryRoot(): string | undefined {
  const root = fileURLToPath(new URL("../../../../", import.meta.url));
  return existsSync(join(root, "pnpm-workspace.yaml")) ? root : undefined;
}

/** Node.js `version` (`v20.20.2`) against the supported minimum. */
export function nodeCheck(version: string): DoctorCheck {
  const [major = 0, minor = 0] = version.replace(/^v/, "").split(".").map(Number);
  const [needMajor, needMinor] = MIN_NODE;
  const recent = major > needMajor || (major === needMajor && minor >= needMinor);
  if (recent) return check("setup", "node", "ok", `Node.js ${version}`);
  return check(
    "setup",
    "node",
    "fail",
    `Node.js ${version} is too old: ask-user needs Node.js ${needMajor}.${needMinor} or newer (https://nodejs.org).`,
  );
}

/** The pnpm the repository names in `packageManager` (`pnpm@12.4.2`), if any. */
function wantedPnpm(root: string): string | undefined {
  try {
    const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
      packageManager?: unknown;
    };
    const match = /^pnpm@(\d[\w.+-]*)$/.exec(String(manifest.packageManager ?? ""));
    return match?.[1];
  } catch {
    return undefined;
  }
}

/** `pnpm --version` found on `path` (the PATH the commands run with). */
export async function pnpmCheck(root: string, path: string | undefined): Promise<DoctorCheck> {
  const wanted = wantedPnpm(root);
  const install = `npm i -g pnpm@${wanted ?? "latest"}`;
  const found = await new Promise<{ version?: string; error?: unknown }>((done) => {
    execFile(
      "pnpm",
      ["--version"],
      { env: { ...process.env, PATH: path ?? "" }, timeout: PNPM_TIMEOUT_MS },
      (error, stdout) => done(error ? { error } : { version: stdout.trim() }),
    );
  });
  if (found.version === undefined) {
    const why =
      errorCode(found.error) === "ENOENT"
        ? "is not on the PATH"
        : `does not run (${errorMessage(found.error)})`;
    return check("setup", "pnpm", "fail", `pnpm ${why}: install it with \`${install}\`.`);
  }
  const major = (version: string) => version.split(".")[0];
  if (wanted !== undefined && major(found.version) !== major(wanted)) {
    return check(
      "setup",
      "pnpm",
      "warn",
      `pnpm ${found.version} is installed; the repository wants pnpm ${wanted}: \`${install}\`.`,
    );
  }
  return check("setup", "pnpm", "ok", `pnpm ${found.version}`);
}

/**
 * Whether what the commands run is built: the gateway's `dist` (the `ask-user` bin runs it; `pnpm start`
 * and `pnpm ask-user` build it first) and the web panel (without it the API runs, `/` says to build).
 */
export function buildCheck(root: string | undefined): DoctorCheck {
  const missing: string[] = [];
  const gatewayBuilt = existsSync(fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url)));
  if (root !== undefined && !gatewayBuilt) missing.push("the gateway (apps/gateway/dist)");
  if (!existsSync(join(webDistDir, "index.html"))) missing.push("the web panel (apps/web/dist)");
  if (missing.length === 0) return check("setup", "build", "ok", "built: the gateway and the web panel");
  const fix =
    root === undefined
      ? "reinstall the package"
      : "run `pnpm build` (`pnpm start` builds before it starts; `node apps/gateway/bin/ask-user.js` and MCP client configurations run what is built)";
  return check("setup", "build", "warn", `Not built: ${missing.join(" and ")}: ${fix}.`);
}

/** Node.js, pnpm (inside the repository) and the build. */
export async function setupChecks(env: Record<string, string | undefined>): Promise<DoctorCheck[]> {
  const root = repositoryRoot();
  const checks = [nodeCheck(process.version)];
  if (root !== undefined) checks.push(await pnpmCheck(root, env.PATH ?? process.env.PATH));
  checks.push(buildCheck(root));
  return checks;
}
