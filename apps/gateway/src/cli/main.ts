import { DEFAULT_GATEWAY_URL } from "../http-client.ts";
import { answerCommand } from "./answer.ts";
import { askCommand } from "./ask.ts";
import type { CliContext, Command } from "./command.ts";
import { type CliIo, EXIT, processIo, reportError, UsageError, writeLine } from "./io.ts";
import { cancelCommand, listCommand, showCommand, skipCommand } from "./questions.ts";
import { mcpCommand, startCommand } from "./server.ts";

export type { CliIo } from "./io.ts";

const COMMANDS: readonly Command[] = [
  startCommand,
  askCommand,
  listCommand,
  showCommand,
  answerCommand,
  skipCommand,
  cancelCommand,
  mcpCommand,
];

function overview(): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length));
  const lines = COMMANDS.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`);
  return `ask-user — put structured questions to a person (Telegram, Discord, Slack, web panel) and wait
for the answer.

Usage: ask-user [--url URL] <command> [options]

Commands:
${lines.join("\n")}

Global options:
  --url URL   the gateway the commands talk to (default: $ASK_USER_URL or ${DEFAULT_GATEWAY_URL})
  -h, --help  show this help; "ask-user <command> --help" shows a command's options

Environment:
  ASK_USER_URL    the gateway's URL
  ASK_USER_TOKEN  the gateway's bearer token, when it has one`;
}

/** True when the arguments ask for help (before any `--`). */
function wantsHelp(args: string[]): boolean {
  for (const arg of args) {
    if (arg === "--") return false;
    if (arg === "--help" || arg === "-h") return true;
  }
  return false;
}

/**
 * The `ask-user` command line: runs one command and resolves with its exit code (0 ok, 1 the gateway
 * refused or failed, 2 bad usage or input, 3 `ask` got no answer, 130 interrupted). Errors are printed
 * for a person, never as stack traces. `io` defaults to the process; tests pass their own.
 *
 * @example
 * ```ts
 * process.exitCode = await main(process.argv.slice(2));
 * ```
 */
export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  const context: CliContext = { io };
  let index = 0;
  // Global options come before the command.
  for (; index < argv.length; index++) {
    const arg = argv[index] ?? "";
    if (!arg.startsWith("-")) break;
    if (arg === "--help" || arg === "-h") {
      writeLine(io.stdout, overview());
      return EXIT.ok;
    }
    if (arg === "--url" && argv[index + 1] !== undefined) context.url = argv[++index] ?? "";
    else if (arg.startsWith("--url=")) context.url = arg.slice("--url=".length);
    else return usageError(io, `Unknown option: ${arg}`, overview());
  }
  const name = argv[index];
  if (name === undefined) return usageError(io, "Missing command.", overview());
  const args = argv.slice(index + 1);
  if (name === "help") {
    const topic = args[0] === undefined ? undefined : COMMANDS.find((command) => command.name === args[0]);
    if (args[0] !== undefined && !topic) return usageError(io, `Unknown command: ${args[0]}`, overview());
    writeLine(io.stdout, topic ? topic.help : overview());
    return EXIT.ok;
  }
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (!command) return usageError(io, `Unknown command: ${name}`, overview());
  if (wantsHelp(args)) {
    writeLine(io.stdout, command.help);
    return EXIT.ok;
  }
  try {
    return await command.run(args, context);
  } catch (error) {
    if (error instanceof UsageError) return usageError(io, error.message, command.help);
    return reportError(io, error);
  }
}

function usageError(io: CliIo, message: string, usage: string): number {
  writeLine(io.stderr, `ask-user: ${message}\n`);
  writeLine(io.stderr, usage);
  return EXIT.usage;
}
