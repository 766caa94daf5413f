#!/usr/bin/env node
// The `ask-user` command. The gateway is TypeScript consumed as source: tsx loads it.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
