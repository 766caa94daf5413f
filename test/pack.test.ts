/**
 * What `npm pack` ships runs on plain Node: every publishable package is packed (`pnpm pack`, which
 * rewrites `workspace:*` to versions), unpacked into a fresh `node_modules` next to only the third-party
 * packages each one declares (no tsx, no Vite), and then imported, and the gateway and the standalone
 * runner are started from their bins.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const PACKAGES = [
  "packages/core",
  "packages/redis",
  "packages/sqlite",
  "packages/client",
  "packages/agents",
  "packages/runner",
  "apps/telegram",
  "apps/discord",
  "apps/slack",
  "apps/web",
  "apps/gateway",
];

/** Node without the test run's `source` condition and tsx loader: what a user's machine has. */
function plainEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env.NODE_OPTIONS;
  return env;
}

interface Manifest {
  name: string;
  exports?: Record<string, string | Record<string, string>>;
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

let work: string;
let modules: string;
const manifests = new Map<string, Manifest>();
const children: ChildProcess[] = [];

beforeAll(() => {
  // `pnpm test` has just built everything; alone, this builds what is missing (turbo's cache makes it quick).
  execFileSync("pnpm", ["exec", "turbo", "run", "build", "--output-logs=errors-only"], {
    cwd: root,
    stdio: "ignore",
    env: plainEnv(),
  });
  work = mkdtempSync(join(tmpdir(), "ask-user-pack-"));
  modules = join(work, "node_modules");
  const tarballs = join(work, "tarballs");
  mkdirSync(tarballs, { recursive: true });
  for (const dir of PACKAGES) {
    const before = new Set(readdirSync(tarballs));
    execFileSync("pnpm", ["pack", "--pack-destination", tarballs], { cwd: join(root, dir), stdio: "ignore" });
    const tarball = readdirSync(tarballs).find((file) => !before.has(file));
    if (!tarball) throw new Error(`pnpm pack made nothing in ${dir}`);
    const manifest = JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8")) as Manifest;
    const target = join(modules, manifest.name);
    mkdirSync(target, { recursive: true });
    execFileSync("tar", ["-xzf", join(tarballs, tarball), "-C", target, "--strip-components=1"]);
    manifests.set(manifest.name, JSON.parse(readFileSync(join(target, "package.json"), "utf8")) as Manifest);
    // Third-party dependencies: the very packages the workspace installed for this one.
    for (const dep of Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })) {
      if (dep.startsWith("@ask-user/") || existsSync(join(modules, dep))) continue;
      const installed = join(root, dir, "node_modules", dep);
      if (!existsSync(installed)) continue; // an optional peer nobody here uses
      mkdirSync(dirname(join(modules, dep)), { recursive: true });
      symlinkSync(realpathSync(installed), join(modules, dep), "dir");
    }
  }
}, 300_000);

afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Every file an `exports` entry or a bin names, as the packed package.json says. */
function entryFiles(manifest: Manifest): string[] {
  const files: string[] = [];
  for (const [key, value] of Object.entries(manifest.exports ?? {})) {
    if (key.includes("*")) continue;
    if (typeof value === "string") files.push(value);
    else for (const [condition, file] of Object.entries(value)) if (condition !== "source") files.push(file);
  }
  return [...files, ...Object.values(manifest.bin ?? {})];
}

describe("the packed packages", () => {
  it("ship compiled JavaScript with types for every entry, and no workspace: versions", () => {
    for (const [name, manifest] of manifests) {
      for (const file of entryFiles(manifest)) {
        expect(existsSync(join(modules, name, file)), `${name}: ${file}`).toBe(true);
        expect(file.endsWith(".ts") && !file.endsWith(".d.ts"), `${name}: ${file}`).toBe(false);
      }
      for (const version of Object.values(manifest.dependencies ?? {}))
        expect(version.startsWith("workspace:"), `${name} depends on ${version}`).toBe(false);
      expect(existsSync(join(modules, name, "src")), `${name} ships src/`).toBe(false);
    }
    expect(existsSync(join(modules, "@ask-user/web/dist/index.html"))).toBe(true);
  });

  it("import on plain Node, without tsx or Vite installed", () => {
    const names = [...manifests.keys()].filter((name) => name !== "@ask-user/web");
    const script = [
      ...names.map((name) => `await import(${JSON.stringify(name)});`),
      `await import("@ask-user/telegram/plugin"); await import("@ask-user/core/text-webhook");`,
      `for (const m of ["tsx", "vite"]) { try { await import(m); throw new Error(m + " is installed"); } catch (e) { if (e.code !== "ERR_MODULE_NOT_FOUND") throw e; } }`,
      `console.log("ok");`,
    ].join("\n");
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: work,
      env: plainEnv(),
      encoding: "utf8",
    });
    expect(out.trim()).toBe("ok");
  });

  it("start the gateway from its bin: API, panel and a question answered over HTTP", async () => {
    const bin = join(modules, "@ask-user/gateway/bin/ask-user.js");
    const child = spawn(process.execPath, [bin, "start"], {
      cwd: work,
      env: plainEnv({
        ASK_USER_PORT: "0",
        ASK_USER_DB: join(work, "gateway.db"),
        ASK_USER_LOG_LEVEL: "warn",
      }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    let output = "";
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no banner:\n${output}`)), 20_000);
      child.stdout.on("data", (chunk) => {
        output += chunk;
        const match = /HTTP API\s+(http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(output);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      child.once("exit", (code) => reject(new Error(`exited with ${code}:\n${output}`)));
    });
    expect(output).not.toContain("not built");
    expect(await (await fetch(`${url}/healthz`)).json()).toMatchObject({ ok: true });
    expect(await (await fetch(`${url}/`)).text()).toMatch(/^<!doctype html>/i);
    const created = await fetch(`${url}/v1/questions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        questions: [
          {
            id: "deploy_target",
            header: "Deploy",
            question: "Where should I deploy?",
            options: [{ label: "Staging (Recommended)" }, { label: "Production" }],
          },
        ],
      }),
    });
    expect(created.status).toBe(201);
    const question = (await created.json()) as { id: string };
    const answered = await fetch(`${url}/v1/questions/${question.id}/answer`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ answers: { deploy_target: ["Production"] } }),
    });
    expect(await answered.json()).toMatchObject({
      status: "answered",
      result: { status: "answered", answers: { answers: { deploy_target: ["Production"] } } },
    });
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
  }, 60_000);

  it("run the standalone runner's bin", () => {
    const bin = join(modules, "@ask-user/runner/bin/ask-user-channel.js");
    const out = execFileSync(process.execPath, [bin, "discord", "--help"], {
      cwd: work,
      env: plainEnv(),
      encoding: "utf8",
    });
    expect(out).toContain("DISCORD_BOT_TOKEN");
  });
});
