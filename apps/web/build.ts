/**
 * Node side of @ask-user/web: where the built panel lives, and a build-if-needed step so that the
 * gateway's `ask-user start` (and so `pnpm start` on a fresh clone) always serves current assets.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { rename } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The web package's folder. */
export const webRoot: string = dirname(fileURLToPath(import.meta.url));

/** Where `vite build` puts the panel: `index.html` and hashed files under `assets/`. */
export const webDistDir: string = join(webRoot, "dist");

/** What decides whether the built panel is current. */
function sourcePaths(): string[] {
  const paths = [
    join(webRoot, "src"),
    join(webRoot, "public"),
    join(webRoot, "index.html"),
    join(webRoot, "vite.config.ts"),
    join(webRoot, "package.json"),
  ];
  try {
    // The panel bundles core's catalogue and text helpers: core's sources count too.
    paths.push(dirname(fileURLToPath(import.meta.resolve("@ask-user/core"))));
  } catch {
    // Not resolvable (a partial install): the web sources decide alone.
  }
  return paths;
}

function newestMtime(path: string): number {
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(path);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** True when `dist/index.html` is missing or older than any source of the panel. */
export function webBuildIsStale(): boolean {
  const built = join(webDistDir, "index.html");
  if (!existsSync(built)) return true;
  const builtAt = statSync(built).mtimeMs;
  return sourcePaths().some((path) => newestMtime(path) > builtAt);
}

/** Options of `ensureWebBuild`. */
export interface EnsureWebBuildOptions {
  /** Told once before a build starts (e.g. a line on stderr). */
  onBuild?: (message: string) => void;
}

/**
 * Builds the panel with Vite when `dist/` is missing or older than its sources; otherwise returns at
 * once (a few dozen `stat` calls). The build goes to a fresh folder that then replaces `dist/`, so a
 * gateway serving the old files, or a second build running at the same time, never sees half a build.
 * Resolves `true` when it built.
 *
 * @example
 * await ensureWebBuild({ onBuild: (message) => process.stderr.write(`${message}\n`) });
 */
export async function ensureWebBuild(options: EnsureWebBuildOptions = {}): Promise<boolean> {
  if (!webBuildIsStale()) return false;
  options.onBuild?.("Building the web panel (apps/web) with Vite…");
  const { build } = await import("vite");
  const suffix = `${process.pid}-${randomBytes(4).toString("hex")}`;
  const outDir = join(webRoot, `.dist-${suffix}`);
  const old = join(webRoot, `.dist-old-${suffix}`);
  // Vite builds for NODE_ENV when it is set (vitest sets "test", which means a development JSX
  // runtime): the gateway serves production assets whoever builds them.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    await build({
      root: webRoot,
      configFile: join(webRoot, "vite.config.ts"),
      mode: "production",
      logLevel: "warn",
      build: { outDir, emptyOutDir: true },
    });
    if (existsSync(webDistDir)) await rename(webDistDir, old).catch(() => undefined);
    await rename(outDir, webDistDir).catch((error: NodeJS.ErrnoException) => {
      // Another build finished first and put its (equal) result in place: keep that one.
      if (!existsSync(join(webDistDir, "index.html"))) throw error;
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
    rmSync(outDir, { recursive: true, force: true });
    rmSync(old, { recursive: true, force: true });
  }
  return true;
}
