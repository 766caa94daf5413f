import type { Readable, Writable } from "node:stream";
import { GatewayError } from "@ask-user/client";
import { AskUserError } from "@ask-user/core";
import { START_HINT } from "../http-client.ts";
import { colorEnabled, paint } from "./color.ts";
import { cliCommand } from "./invocation.ts";

/** Where the CLI reads and writes; `main` uses the process's streams unless a test passes its own. */
export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  stdin: AsyncIterable<string | Uint8Array>;
  env: Record<string, string | undefined>;
  /** True when stderr is a terminal: `ask` then shows a live countdown instead of one waiting line. */
  isTTY: boolean;
  /** Registers a Ctrl-C handler and returns its remover; defaults to the process's SIGINT. */
  onInterrupt?: (handler: () => void) => () => void;
  /** Whether stdout and stderr get colours (a terminal without `NO_COLOR`). Default: no colour. */
  color?: { stdout: boolean; stderr: boolean };
  /**
   * The terminal that interactive prompts (`ask-user answer` without `--json`) read keys from and draw
   * on: the process's stdin/stdout when both are terminals, a test's streams, or absent (no prompts).
   */
  terminal?: { input: Readable; output: Writable };
}

/** The process's streams, environment and SIGINT. */
export function processIo(): CliIo {
  const interactive = process.stdin.isTTY === true && process.stdout.isTTY === true;
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    isTTY: process.stderr.isTTY === true,
    color: {
      stdout: colorEnabled(process.stdout.isTTY, process.env),
      stderr: colorEnabled(process.stderr.isTTY, process.env),
    },
    ...(interactive ? { terminal: { input: process.stdin, output: process.stdout } } : {}),
    onInterrupt(handler) {
      process.on("SIGINT", handler);
      return () => {
        process.off("SIGINT", handler);
      };
    },
  };
}

/** Exit codes of every command. */
export const EXIT = {
  ok: 0,
  /** The gateway refused or failed (404, 409, unreachable, …). */
  failed: 1,
  /** Bad command line or bad input. */
  usage: 2,
  /** `ask` ended without an answer (skipped, expired, cancelled, undeliverable). */
  noAnswer: 3,
  /** Ctrl-C. */
  interrupted: 130,
} as const;

/** A bad command line (code `invalid_input`): `main` prints the message and the usage and exits 2. */
export class UsageError extends AskUserError {
  override name = "UsageError";
  constructor(message: string) {
    super("invalid_input", message);
  }
}

/**
 * Bad input that is not a command-line mistake (unreadable file, invalid JSON; code `invalid_input`):
 * message only, exit 2.
 */
export class InputError extends AskUserError {
  override name = "InputError";
  constructor(message: string) {
    super("invalid_input", message);
  }
}

export function writeLine(stream: { write(text: string): unknown }, text = ""): void {
  stream.write(`${text}\n`);
}

/** Reads all of stdin as UTF-8. */
export async function readAll(stdin: AsyncIterable<string | Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of stdin)
    text += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

/**
 * Prints a failed call for a person (never a stack trace) and returns the exit code: issues one per line
 * and 2 for rejected input, the gateway's reason and 1 otherwise. `url` is the gateway's, for the hints.
 */
export function reportError(io: CliIo, error: unknown, questionId?: string, url?: string): number {
  const p = paint(io.color?.stderr === true);
  if (error instanceof UsageError || error instanceof InputError) {
    writeLine(io.stderr, p.red(error.message));
    return EXIT.usage;
  }
  if (!(error instanceof GatewayError)) {
    const message = error instanceof Error ? error.message : String(error);
    writeLine(io.stderr, p.red(`ask-user: unexpected error: ${message}`));
    return EXIT.failed;
  }
  if (error.reason === "unreachable") {
    const message = url
      ? `No ask-user gateway answers at ${url}. ${START_HINT}`
      : `${error.message} ${START_HINT}`;
    writeLine(io.stderr, p.red(message));
    return EXIT.failed;
  }
  if (error.issues.length > 0) {
    const count = error.issues.length;
    writeLine(io.stderr, p.red(`The gateway refused the input (${count} problem${count === 1 ? "" : "s"}):`));
    for (const issue of error.issues) writeLine(io.stderr, `  ${issue.path || "(input)"}: ${issue.message}`);
    return EXIT.usage;
  }
  if (error.status === 404 && questionId !== undefined) {
    writeLine(io.stderr, p.red(`ask-user: no question with id ${questionId}.`));
    writeLine(io.stderr, `Run "${cliCommand(io.env, url)} list" to see the questions and their ids.`);
    return EXIT.failed;
  }
  if (error.status === 401) {
    const hint = io.env.ASK_USER_TOKEN
      ? "ASK_USER_TOKEN does not match the gateway's token."
      : "Set ASK_USER_TOKEN to the gateway's token.";
    writeLine(io.stderr, p.red(`${error.message} ${hint}`));
    return EXIT.failed;
  }
  writeLine(io.stderr, p.red(error.message));
  return error.status === 400 || error.status === 422 ? EXIT.usage : EXIT.failed;
}
