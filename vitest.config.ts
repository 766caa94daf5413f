import { defineConfig } from "vitest/config";

// One root config; every workspace package with tests is a project (globbed, not hand-kept).
// The JSON report feeds the one-line summary that .ci/run prints at the end.
export default defineConfig({
  test: {
    projects: ["packages/*", "apps/*", "test"],
    reporters: ["default", "json"],
    outputFile: { json: "test-output/vitest.json" },
  },
});
