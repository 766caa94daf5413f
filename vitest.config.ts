import { defineConfig } from "vitest/config";

// One root config; every workspace package with tests is a project (globbed, not hand-kept).
export default defineConfig({
  test: {
    projects: ["packages/*", "apps/*", "test"],
  },
});
