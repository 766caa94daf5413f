/**
 * The standalone runner shared by the channel apps: `tsx src/main.ts --target <conversation>
 * [--creator <user id>] <file|->` asks one question through one platform alone and prints the result.
 */
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import {
  type AskUserBroker,
  type AskUserLogger,
  type Channel,
  type Coordination,
  createAskUser,
  InvalidAskUserInputError,
  normalizeAskUserInput,
  type Prompt,
} from "@ask-user/core";

/** The exit codes: 0 answered (and `--help`) · 1 failure · 2 bad usage or input · 3 no answer · 130 Ctrl-C. */
export const EXIT = { answered: 0, failed: 1, usage: 2, noAnswer: 3, interrupted: 130 } as const;

/** Where the runner reads and writes; tests pass their own. */
export interface StandaloneIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** Read for the file `-`. */
  stdin: AsyncIterable<string | Uint8Array>;
  /** Registers a Ctrl-C handler and returns its remover (none: Ctrl-C is not handled). */
  onInterrupt?: (handler: () => void) => () => void;
}

/** What `start` gets: the environment, the broker (ready once `start` has returned) and the logger. */
export interface StartContext {
  env: Record<string, string | undefined>;
  broker: () => AskUserBroker;
  logger: AskUserLogger;
  /** The store's dedupe keys and leases (SPEC §9), shared by every process on the same database. */
  coordination: Coordination;
  /** This process's name in leases. */
  instanceId: string;
}

/** A started channel, as `runTelegram` / `runDiscord` / `runSlack` return it. */
export interface StartedChannel {
  channel: Channel;
  /** One banner line without secrets, e.g. `telegram (@my_bot, long polling)`. */
  describe: string;
  stop(): Promise<void>;
}

/** Options of {@link runStandalone}: the command line, and what differs per platform. */
export interface StandaloneOptions {
  argv: string[];
  env: Record<string, string | undefined>;
  /** Default: the process's streams, Ctrl-C via SIGINT ({@link processIo}). */
  io?: StandaloneIo;
  /** `telegram`: names the default database `.ask-user/telegram.db` and prefixes log and error lines. */
  platform: string;
  /** Printed for `--help` (stdout) and under every usage error (stderr). */
  usage: string;
  /** Whether `--target` names a conversation of this platform; may throw an `Error` saying why not. */
  validTarget(conversation: string): boolean;
  /** Checks the environment before anything starts; throws an `Error` saying what is missing (exit 1). */
  readEnv?(env: Record<string, string | undefined>): unknown;
  /** Starts the channel. */
  start(context: StartContext): Promise<StartedChannel>;
  /** The line on stderr once the question is out. Default: `<describe>: waiting for an answer in <target>…`. */
  waitingLine?(describe: string, target: string): string;
}

/** The signature of an app's `main`: the command line and environment in, the exit code out. */
export type StandaloneMain<Io extends StandaloneIo = StandaloneIo> = (
  argv: string[],
  env: Record<string, string | undefined>,
  io?: Io,
) => Promise<number>;

/** The process's streams; Ctrl-C cancels the question once, a second Ctrl-C ends the process. */
export function processIo(): StandaloneIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    onInterrupt(handler) {
      process.once("SIGINT", handler);
      return () => process.off("SIGINT", handler);
    },
  };
}

/** True when the module at `moduleUrl` (pass `import.meta.url`) is the script node was started with. */
export function isMain(moduleUrl: string): boolean {
  const entry = process.argv[1];
  return entry !== undefined && moduleUrl === pathToFileURL(entry).href;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function readInput(file: string, io: StandaloneIo): Promise<unknown> {
  if (file !== "-") return JSON.parse(await readFile(file, "utf8")) as unknown;
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) chunks.push(Buffer.from(chunk));
  return JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
}

function stderrLogger(io: StandaloneIo, platform: string): AskUserLogger {
  const line = (level: string) => (details: Record<string, unknown>, message: string) =>
    io.stderr.write(`[ask-user ${platform}] ${level} ${message} ${JSON.stringify(details)}\n`);
  return { warn: line("warn"), error: line("error") };
}

type Parsed =
  | { help: true }
  | { help: false; target: string; creator: string | undefined; file: string }
  | { error: string };

function parseCommandLine(options: StandaloneOptions): Parsed {
  let values: { target?: string | undefined; creator?: string | undefined; help?: boolean | undefined };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: options.argv,
      allowPositionals: true,
      options: {
        target: { type: "string" },
        creator: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (error) {
    return { error: messageOf(error) };
  }
  if (values.help) return { help: true };
  const { target, creator } = values;
  const file = positionals[0];
  if (!target) return { error: "--target is required." };
  if (file === undefined || positionals.length !== 1) return { error: 'Give one FILE, or "-" for stdin.' };
  try {
    if (!options.validTarget(target))
      return { error: `--target ${target} is not a ${options.platform} conversation.` };
  } catch (error) {
    return { error: messageOf(error) };
  }
  return { help: false, target, creator: creator || undefined, file };
}

/** Quietly runs one clean-up step: a failure is logged, never thrown over the result. */
async function settle(logger: AskUserLogger, what: string, step: () => Promise<unknown>): Promise<void> {
  try {
    await step();
  } catch (error) {
    logger.warn({ err: messageOf(error) }, `could not ${what}`);
  }
}

/**
 * Runs the standalone runner and resolves with its exit code (it never rejects): parses `--target`,
 * `--creator`, `-h/--help` and one FILE (`-` reads stdin), reads and normalises the ask_user input, opens
 * the SQLite store at `ASK_USER_DB` (default `.ask-user/<platform>.db`), starts the channel, asks, prints
 * the result JSON on stdout. Ctrl-C cancels the question. `ASK_USER_LOCALE` sets the default locale.
 *
 * @example
 * process.exitCode = await runStandalone({
 *   argv: process.argv.slice(2), env: process.env, platform: "telegram", usage: USAGE,
 *   validTarget: (conversation) => parseConversation(conversation) !== undefined,
 *   readEnv: readTelegramEnv, start: runTelegram,
 * });
 */
export async function runStandalone(options: StandaloneOptions): Promise<number> {
  const { env, platform, usage } = options;
  const io = options.io ?? processIo();
  const fail = (code: number, text: string): number => {
    io.stderr.write(`${text}\n`);
    return code;
  };

  const args = parseCommandLine(options);
  if ("error" in args) return fail(EXIT.usage, `${args.error}\n\n${usage}`);
  if (args.help) {
    io.stdout.write(`${usage}\n`);
    return EXIT.answered;
  }
  const { target, creator, file } = args;
  const source = file === "-" ? "stdin" : file;
  let raw: unknown;
  try {
    raw = await readInput(file, io);
  } catch (error) {
    return fail(EXIT.usage, `Cannot read ${source}: ${messageOf(error)}`);
  }
  try {
    options.readEnv?.(env); // before anything starts: a missing token is reported first
  } catch (error) {
    return fail(EXIT.failed, `ask-user ${platform}: ${messageOf(error)}`);
  }
  let prompt: Prompt;
  try {
    prompt = normalizeAskUserInput(raw);
  } catch (error) {
    if (!(error instanceof InvalidAskUserInputError)) return fail(EXIT.failed, messageOf(error));
    const issues = error.issues.map((issue) => `- ${issue.path || "(input)"}: ${issue.message}`);
    return fail(EXIT.usage, `${source} is not valid ask_user input:\n${issues.join("\n")}`);
  }

  const { createSqliteStore } = await import("@ask-user/sqlite"); // loaded only when it is needed
  const logger = stderrLogger(io, platform);
  const controller = new AbortController();
  const removeInterrupt = (io.onInterrupt ?? (() => () => undefined))(() => controller.abort());
  let store: ReturnType<typeof createSqliteStore> | undefined;
  let started: StartedChannel | undefined;
  let broker: AskUserBroker | undefined;
  try {
    store = createSqliteStore({ path: env.ASK_USER_DB?.trim() || `.ask-user/${platform}.db`, logger });
    const instanceId = randomUUID();
    started = await options.start({
      env,
      logger,
      coordination: store,
      instanceId,
      broker: () => {
        if (!broker) throw new Error("the broker is not ready yet");
        return broker;
      },
    });
    const locale = env.ASK_USER_LOCALE?.trim();
    broker = createAskUser({
      store,
      channels: [started.channel],
      logger,
      instanceId,
      ...(locale ? { locale } : {}),
    });
    await broker.ready;
    const waiting = options.waitingLine ?? ((describe, to) => `${describe}: waiting for an answer in ${to}…`);
    io.stderr.write(`${waiting(started.describe, target)}\n`);
    const channel = started.channel.name;
    const result = await broker.ask(prompt, {
      target: { channel, conversation: target },
      signal: controller.signal,
      ...(creator === undefined ? {} : { creator: { channel, userId: creator } }),
    });
    io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    if (controller.signal.aborted) return EXIT.interrupted;
    return result.status === "answered" ? EXIT.answered : EXIT.noAnswer;
  } catch (error) {
    return fail(EXIT.failed, `ask-user ${platform}: ${messageOf(error)}`);
  } finally {
    removeInterrupt();
    await settle(logger, "close the broker", async () => broker?.close());
    await settle(logger, `stop ${platform}`, async () => started?.stop());
    await settle(logger, "close the store", async () => store?.close());
  }
}
