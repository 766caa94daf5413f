#!/usr/bin/env node
// The `ask-user-channel` command. The packages are TypeScript consumed as source: tsx loads them.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/cli.ts");
process.exitCode = await main(process.argv.slice(2), process.env);
