/**
 * The standalone runner: asks one question through Discord alone and prints the result.
 *
 *   tsx src/main.ts --target <conversation> [--creator <user id>] <file.json|->
 *
 * Environment: `DISCORD_BOT_TOKEN` (required), `DISCORD_API_URL` (optional REST base), `ASK_USER_DB`
 * (the SQLite file, default `.ask-user/discord.db`). Exit codes: 0 answered · 3 no answer · 2 bad
 * input · 1 failure · 130 Ctrl-C.
 */
import { readFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { type AskUserBroker, createAskUser, InvalidAskUserInputError } from "@ask-user/core";
import { parseTarget } from "./conversation.ts";
import type { DiscordLogger } from "./inbound.ts";
import { readDiscordEnv, runDiscord } from "./run.ts";

const USAGE = `Usage: tsx src/main.ts --target CONVERSATION [--creator USER_ID] FILE|-

Asks the questions in FILE (ask_user tool input as JSON; "-" reads stdin) on Discord and prints the
result JSON. CONVERSATION is a channel or thread id, or user:USER_ID for a DM. With --creator, only
that Discord user may answer (use it in guild channels).

Environment: DISCORD_BOT_TOKEN (required), DISCORD_API_URL (REST base, e.g. http://127.0.0.1:PORT/api),
ASK_USER_DB (default .ask-user/discord.db).

Exit codes: 0 answered · 3 no answer · 2 bad input · 1 failure · 130 interrupted.`;

/** Where the runner reads and writes; tests pass their own. */
export interface MainIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  stdin: AsyncIterable<string | Uint8Array>;
  /** Registers a Ctrl-C handler and returns its remover (default: the process's SIGINT). */
  onInterrupt?: (handler: () => void) => () => void;
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

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function readInput(file: string, io: MainIo): Promise<unknown> {
  if (file !== "-") return JSON.parse(await readFile(file, "utf8")) as unknown;
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) chunks.push(Buffer.from(chunk));
  return JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
}

function stderrLogger(io: MainIo): DiscordLogger {
  const line = (level: string) => (details: Record<string, unknown>, message: string) =>
    io.stderr.write(`[ask-user discord] ${level} ${message} ${JSON.stringify(details)}\n`);
  return { info: line("info"), warn: line("warn"), error: line("error") };
}

/**
 * Runs the standalone runner and resolves with its exit code.
 *
 * @example
 * process.exitCode = await main(["--target", "user:80351110224678912", "question.json"], process.env);
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
    io.stderr.write(`${describe(error)}\n\n${USAGE}\n`);
    return EXIT.usage;
  }
  if (values.help) {
    io.stdout.write(`${USAGE}\n`);
    return EXIT.answered;
  }
  const file = positionals[0];
  const target = values.target;
  if (positionals.length !== 1 || file === undefined || target === undefined || !parseTarget(target)) {
    io.stderr.write(`${USAGE}\n`);
    return EXIT.usage;
  }
  let input: unknown;
  try {
    input = await readInput(file, io);
  } catch (error) {
    io.stderr.write(`Cannot read ${file === "-" ? "stdin" : file}: ${describe(error)}\n`);
    return EXIT.usage;
  }

  try {
    readDiscordEnv(env); // before anything is created: a missing token is reported first
  } catch (error) {
    io.stderr.write(`${describe(error)}\n`);
    return EXIT.failed;
  }
  const { createSqliteStore } = await import("@ask-user/sqlite");
  const logger = stderrLogger(io);
  let store: ReturnType<typeof createSqliteStore> | undefined;
  let broker: AskUserBroker | undefined;
  let stopDiscord = async (): Promise<void> => undefined;
  const controller = new AbortController();
  const removeInterrupt = (io.onInterrupt ?? (() => () => undefined))(() => controller.abort());
  try {
    store = createSqliteStore({ path: env.ASK_USER_DB?.trim() || ".ask-user/discord.db", logger });
    const running = await runDiscord({
      env,
      logger,
      broker: () => {
        if (!broker) throw new Error("the broker is not ready yet");
        return broker;
      },
    });
    stopDiscord = running.stop;
    broker = createAskUser({ store, channels: [running.channel], logger });
    await broker.ready;
    io.stderr.write(`${running.describe}: waiting for an answer in ${target}…\n`);
    const name = running.channel.name;
    const result = await broker.ask(input, {
      target: { channel: name, conversation: target },
      signal: controller.signal,
      ...(values.creator === undefined ? {} : { creator: { channel: name, userId: values.creator } }),
    });
    io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    if (controller.signal.aborted) return EXIT.interrupted;
    return result.status === "answered" ? EXIT.answered : EXIT.noAnswer;
  } catch (error) {
    if (error instanceof InvalidAskUserInputError) {
      io.stderr.write(`${error.message}\n`);
      return EXIT.usage;
    }
    io.stderr.write(`${describe(error)}\n`);
    return EXIT.failed;
  } finally {
    removeInterrupt();
    await broker?.close();
    await stopDiscord();
    await store?.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2), process.env);
}
