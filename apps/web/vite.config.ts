import { defaultClientConditions, defineConfig } from "vite";

// Preact through the automatic JSX runtime of Vite's own transformer (Oxc): no framework plugin needed.
export default defineConfig({
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  // Workspace packages are bundled from their TypeScript sources (the `source` export condition).
  resolve: { conditions: ["source", ...defaultClientConditions] },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    rolldownOptions: {
      // @ask-user/core is consumed as TypeScript source without a `sideEffects` flag: its modules are
      // pure, so let the bundler drop everything the panel does not import (the zod schema above all).
      treeshake: { moduleSideEffects: (id: string) => !/[\\/]packages[\\/]core[\\/]src[\\/]/.test(id) },
    },
  },
  server: { proxy: { "/v1": "http://127.0.0.1:7310" } },
});
