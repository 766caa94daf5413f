#!/usr/bin/env node
// The `ask-user` command: the compiled gateway (`dist/`, made by `pnpm build`). Under the `source`
// condition (the repository's tests, with tsx loaded) `#cli` is the TypeScript source instead.
const { main } = await import("#cli");
process.exitCode = await main(process.argv.slice(2));
