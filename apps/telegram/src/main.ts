/**
 * The standalone runner: asks one question through Telegram alone and prints the result.
 *
 *   tsx src/main.ts --target <conversation> <file.json|->
 *
 * Environment: the `TELEGRAM_*` variables of `runTelegram`, and `ASK_USER_DB` (the SQLite file, default
 * `.ask-user/telegram.db`). Exit codes: 0 answered · 3 no answer · 2 bad input · 1 failure · 130 Ctrl-C.
 */
import { readFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import {
  type AskUserBroker,
  type AskUserResult,
  createAskUser,
  InvalidAskUserInputError,
  normalizeAskUserInput,
  type Prompt,
} from "@ask-user/core";
import { parseConversation } from "./conversation.ts";
import { describeError } from "./errors.ts";
import type { RetryOptions } from "./retry.ts";
import { runTelegram, type TelegramLogger } from "./run.ts";

const USAGE = `Usage: tsx src/main.ts --target CONVERSATION [--creator USER_ID] FILE|-

Asks the questions in FILE (ask_user tool input as JSON; "-" reads stdin) in a Telegram chat and prints
the result JSON. CONVERSATION is a chat id, or CHAT_ID:THREAD_ID for a forum topic. With --creator, only
that Telegram user may answer (use it in groups).

Environment: TELEGRAM_BOT_TOKEN (required), TELEGRAM_API_ROOT, TELEGRAM_WEBHOOK_URL + TELEGRAM_WEBHOOK_SECRET
(webhook mode; TELEGRAM_WEBHOOK_HOST, TELEGRAM_WEBHOOK_PORT), ASK_USER_DB (default .ask-user/telegram.db).

Exit codes: 0 answered · 3 no answer · 2 bad input · 1 failure · 130 interrupted.`;

/** Where the runner reads and writes; tests pass their own. */
export interface MainIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  stdin: AsyncIterable<string | Uint8Array>;
  /** Registers a Ctrl-C handler and returns its remover (default: the process's SIGINT). */
  onInterrupt?: (handler: () => void) => () => void;
  /** Retry bounds of the Bot API calls (tests shorten them). */
  retry?: RetryOptions;
}

const EXIT = { answered: 0, failed: 1, usage: 2, noAnswer: 3, interrupted: 130 } as const;

function processIo(): MainIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    onInterrupt(handler) {
      process.on("SIGINT", handler);
      return () => process.off("SIGINT", handler);
    },
  };
}

async function readInput(file: string, io: MainIo): Promise<unknown> {
  let text = "";
  if (file === "-") {
    const chunks: Buffer[] = [];
    for await (const chunk of io.stdin)
      chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : Buffer.from(chunk));
    text = Buffer.concat(chunks).toString("utf8");
  } else {
    text = await readFile(file, "utf8");
  }
  return JSON.parse(text) as unknown;
}

function stderrLogger(io: MainIo): TelegramLogger {
  const line = (level: string) => (details: Record<string, unknown>, message: string) =>
    io.stderr.write(`[ask-user telegram] ${level} ${message} ${JSON.stringify(details)}\n`);
  return { warn: line("warn"), error: line("error") };
}

/**
 * Runs the standalone runner and resolves with its exit code.
 *
 * @example
 * process.exitCode = await main(process.argv.slice(2), process.env);
 */
export async function main(
  argv: string[],
  env: Record<string, string | undefined>,
  io: MainIo = processIo(),
): Promise<number> {
  let values: { target?: string | undefined; creator?: string | undefined; help?: boolean | undefined };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        target: { type: "string" },
        creator: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (error) {
    io.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}\n`);
    return EXIT.usage;
  }
  if (values.help) {
    io.stdout.write(`${USAGE}\n`);
    return EXIT.answered;
  }
  const file = positionals[0];
  if (positionals.length !== 1 || file === undefined || !parseConversation(values.target)) {
    io.stderr.write(`${USAGE}\n`);
    return EXIT.usage;
  }
  let input: Prompt;
  try {
    input = normalizeAskUserInput(await readInput(file, io));
  } catch (error) {
    const why = error instanceof InvalidAskUserInputError ? error.message : describeError(error);
    io.stderr.write(`Cannot use ${file === "-" ? "stdin" : file}: ${why}\n`);
    return EXIT.usage;
  }

  const { createSqliteStore } = await import("@ask-user/sqlite");
  const logger = stderrLogger(io);
  let store: Awaited<ReturnType<typeof createSqliteStore>> | undefined;
  let broker: AskUserBroker | undefined;
  let stopTelegram: () => Promise<void> = async () => undefined;
  const controller = new AbortController();
  const removeInterrupt = (io.onInterrupt ?? (() => () => undefined))(() => controller.abort());
  try {
    store = createSqliteStore({ path: env.ASK_USER_DB?.trim() || ".ask-user/telegram.db" });
    const running = await runTelegram({
      env,
      logger,
      broker: () => {
        if (!broker) throw new Error("the broker is not ready yet");
        return broker;
      },
      ...(io.retry === undefined ? {} : { retry: io.retry }),
    });
    stopTelegram = running.stop;
    broker = createAskUser({ store, channels: [running.channel], logger });
    await broker.ready;
    io.stderr.write(`${running.describe}: waiting for an answer in ${values.target}…\n`);
    const result: AskUserResult = await broker.ask(input, {
      target: { channel: running.channel.name, conversation: values.target ?? "" },
      signal: controller.signal,
      ...(values.creator === undefined
        ? {}
        : { creator: { channel: running.channel.name, userId: values.creator } }),
    });
    io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    if (controller.signal.aborted) return EXIT.interrupted;
    return result.status === "answered" ? EXIT.answered : EXIT.noAnswer;
  } catch (error) {
    io.stderr.write(`${describeError(error)}\n`);
    return EXIT.failed;
  } finally {
    removeInterrupt();
    await broker?.close();
    await stopTelegram();
    await store?.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2), process.env);
}
