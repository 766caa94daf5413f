import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { defaultClientConditions, defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";

// One root config; every workspace package with a package.json is a project named after it (globbed,
// not hand-kept). Workspace packages export `dist/` to the world and their TypeScript sources under the
// `source` condition: tests run the sources, and so do the processes tests start (a gateway, a
// standalone runner, a SQLite writer): NODE_OPTIONS gives them the condition and tsx.
// The JSON report feeds the one-line summary that .ci/run prints at the end.
const projectDirs = ["packages", "apps"]
  .flatMap((parent) => readdirSync(parent).map((name) => `${parent}/${name}`))
  .concat("test")
  .filter((dir) => existsSync(`${dir}/package.json`));

const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

export default defineConfig({
  resolve: { conditions: ["source", ...defaultClientConditions] },
  ssr: { resolve: { conditions: ["source", ...defaultServerConditions], externalConditions: ["source"] } },
  test: {
    env: { NODE_OPTIONS: `--conditions=source --import=${tsx}` },
    projects: projectDirs.map((dir) => ({
      extends: true,
      root: dir,
      test: { name: JSON.parse(readFileSync(`${dir}/package.json`, "utf8")).name as string },
    })),
    // Most test time is spent waiting (platform fakes, child processes, timers), so two files run at
    // once even on two cores (Vitest's default there is one): about a third less wall time.
    maxWorkers: 2,
    // Many tests start gateways, fakes and child processes: Vitest's 5 s default ran out under a loaded
    // CI machine for tests that take 1-2 s alone. Tests that measure time assert it themselves.
    testTimeout: 15_000,
    reporters: ["default", "json"],
    outputFile: { json: "test-output/vitest.json" },
  },
});
