import { DEFAULT_GATEWAY_URL } from "../http-client.ts";
import { answerCommand } from "./answer.ts";
import { askCommand } from "./ask.ts";
import type { CliContext, Command } from "./command.ts";
import { doctorCommand } from "./doctor.ts";
import { type CliIo, EXIT, processIo, reportError, UsageError, writeLine } from "./io.ts";
import { cancelCommand, listCommand, showCommand, skipCommand } from "./questions.ts";
import { mcpCommand, startCommand } from "./server.ts";
import { waitCommand } from "./wait.ts";

export type { CliIo } from "./io.ts";

const COMMANDS: readonly Command[] = [
  startCommand,
  askCommand,
  waitCommand,
  listCommand,
  showCommand,
  answerCommand,
  skipCommand,
  cancelCommand,
  mcpCommand,
  doctorCommand,
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
 * refused or failed, 2 bad usage or input, 3 `ask` or `wait` got no answer, 130 interrupted). Errors are printed
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
    if (args[0] !== undefined && !topic) return usageError(io, unknownCommand(args[0]), overview());
    writeLine(io.stdout, topic ? topic.help : overview());
    return EXIT.ok;
  }
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (!command) return usageError(io, unknownCommand(name), overview());
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

/** `Unknown command: wiat. Did you mean "wait"?` — the hint when one command is a typo away. */
function unknownCommand(name: string): string {
  let best: { name: string; distance: number } | undefined;
  for (const command of COMMANDS) {
    const distance = editDistance(name.toLowerCase(), command.name);
    if (distance < (best?.distance ?? Number.POSITIVE_INFINITY)) best = { name: command.name, distance };
  }
  const near = best && best.distance <= 2 && best.distance < name.length;
  return near ? `Unknown command: ${name}. Did you mean "${best?.name}"?` : `Unknown command: ${name}`;
}

/** Edits (insert, delete, replace, swap two neighbours) that turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => rows[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = rows[i] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(at(i, j), at(i - 2, j - 2) + 1);
    }
  }
  return at(a.length, b.length);
}

function usageError(io: CliIo, message: string, usage: string): number {
  writeLine(io.stderr, `ask-user: ${message}\n`);
  writeLine(io.stderr, usage);
  return EXIT.usage;
}
