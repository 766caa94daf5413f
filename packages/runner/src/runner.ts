/**
 * The standalone runner: one question through one channel plugin alone, the result JSON on stdout, the
 * outcome as the exit code. `ask-user-channel telegram --target <conversation> FILE|-`.
 */
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import {
  type AskUserBroker,
  type ChannelEnv,
  type ChannelInstance,
  type ChannelLogger,
  type ChannelPlugin,
  createAskUser,
  describeError,
  InvalidAskUserInputError,
  InvalidChannelConfigError,
  normalizeAskUserInput,
  type Prompt,
  type QuestionStore,
} from "@ask-user/core";
import { parseCommandLine } from "./args.ts";
import { serveWebhook, type WebhookServer } from "./serve.ts";
import { EXIT, usageText } from "./usage.ts";

/** Where the runner reads and writes; tests pass their own. */
export interface StandaloneIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** Read for the file `-`. */
  stdin: AsyncIterable<string | Uint8Array>;
  /** Registers a Ctrl-C handler and returns its remover (none: Ctrl-C is not handled). */
  onInterrupt?: (handler: () => void) => () => void;
}

/** Options of {@link runStandalone}. */
export interface StandaloneOptions {
  /** The channel: `channelPlugin` of `@ask-user/telegram/plugin`, or any other. */
  plugin: ChannelPlugin;
  /** The command line after the channel's name: `--target … [--creator …] FILE|-`. */
  argv: string[];
  env: ChannelEnv;
  /** Default: the process's streams, Ctrl-C via SIGINT ({@link processIo}). */
  io?: StandaloneIo;
}

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

async function readInput(file: string, io: StandaloneIo): Promise<unknown> {
  if (file !== "-") return JSON.parse(await readFile(file, "utf8")) as unknown;
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) chunks.push(Buffer.from(chunk));
  return JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
}

/** Warnings and errors as one stderr line each: `[ask-user telegram] warn message {details}`. */
function stderrLogger(io: StandaloneIo, name: string): ChannelLogger {
  const json = (details: Record<string, unknown>) =>
    JSON.stringify(details, (_key, value: unknown) =>
      value instanceof Error ? describeError(value) : value,
    );
  const line = (level: string) => (details: Record<string, unknown>, message: string) =>
    io.stderr.write(`[ask-user ${name}] ${level} ${message} ${json(details)}\n`);
  return { warn: line("warn"), error: line("error") };
}

/** Quietly runs one clean-up step: a failure is logged, never thrown over the result. */
async function settle(logger: ChannelLogger, what: string, step: () => Promise<unknown>): Promise<void> {
  try {
    await step();
  } catch (error) {
    logger.warn({ err: describeError(error) }, `could not ${what}`);
  }
}

/** What the runner opened, closed in reverse once the question has its result. */
interface Opened {
  store?: QuestionStore;
  instance?: ChannelInstance;
  server?: WebhookServer;
  broker?: AskUserBroker;
}

/**
 * Runs the standalone runner for `plugin` and resolves with its exit code (it never rejects): reads the
 * command line (`--help` prints the usage generated from `plugin.variables`), checks `--target` with
 * `plugin.parseConversation`, reads FILE (`-`: stdin), reads the channel's config (every problem, exit 1),
 * normalises the input, opens the SQLite store at `ASK_USER_DB` (default `.ask-user/<name>.db`),
 * creates the channel, serves its `handleWebhook` on its `listen` address when it has one, starts
 * it with the broker, asks, and prints the result JSON. Ctrl-C cancels the question (exit 130).
 *
 * @example
 * import { channelPlugin } from "@ask-user/telegram/plugin";
 * process.exitCode = await runStandalone({ plugin: channelPlugin, argv: process.argv.slice(2), env: process.env });
 */
export async function runStandalone(options: StandaloneOptions): Promise<number> {
  const { plugin, env } = options;
  const io = options.io ?? processIo();
  const usage = usageText(plugin);
  const fail = (code: number, text: string): number => {
    io.stderr.write(`${text}\n`);
    return code;
  };

  const args = parseCommandLine(options.argv, plugin);
  if ("error" in args) return fail(EXIT.usage, `${args.error}\n\n${usage}`);
  if (args.help) {
    io.stdout.write(`${usage}\n`);
    return EXIT.answered;
  }
  const source = args.file === "-" ? "stdin" : args.file;
  let raw: unknown;
  try {
    raw = await readInput(args.file, io);
  } catch (error) {
    return fail(
      EXIT.usage,
      `Cannot read ${source}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  let config: unknown;
  try {
    config = plugin.readConfig(env); // before anything starts: a missing token is reported first
  } catch (error) {
    if (!(error instanceof InvalidChannelConfigError))
      return fail(EXIT.failed, `ask-user ${plugin.name}: ${describeError(error)}`);
    const problems = error.problems.map((problem) => `- ${problem}`);
    return fail(EXIT.failed, `ask-user ${plugin.name}: invalid configuration:\n${problems.join("\n")}`);
  }
  let prompt: Prompt;
  try {
    prompt = normalizeAskUserInput(raw);
  } catch (error) {
    if (!(error instanceof InvalidAskUserInputError)) return fail(EXIT.failed, describeError(error));
    const issues = error.issues.map((issue) => `- ${issue.path || "(input)"}: ${issue.message}`);
    return fail(EXIT.usage, `${source} is not valid ask_user input:\n${issues.join("\n")}`);
  }

  const logger = stderrLogger(io, plugin.name);
  const controller = new AbortController();
  const removeInterrupt = (io.onInterrupt ?? (() => () => undefined))(() => controller.abort());
  const opened: Opened = {};
  try {
    const result = await ask(plugin, config, prompt, {
      ...args,
      env,
      io,
      logger,
      opened,
      signal: controller.signal,
    });
    io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    if (controller.signal.aborted) return EXIT.interrupted;
    return result.status === "answered" ? EXIT.answered : EXIT.noAnswer;
  } catch (error) {
    return fail(
      EXIT.failed,
      `ask-user ${plugin.name}: ${error instanceof Error ? error.message : String(error)}`,
    );
  } finally {
    removeInterrupt();
    const { server, broker, instance, store } = opened;
    await settle(logger, "close the webhook server", async () => server?.close());
    await settle(logger, "close the broker", async () => broker?.close());
    await settle(logger, `stop ${plugin.name}`, async () => instance?.stop());
    await settle(logger, "close the store", async () => store?.close());
  }
}

/** Opens the store, creates and serves the channel, starts it with the broker and asks. */
async function ask(
  plugin: ChannelPlugin,
  config: unknown,
  prompt: Prompt,
  run: {
    target: string;
    creator: string | undefined;
    env: ChannelEnv;
    io: StandaloneIo;
    logger: ChannelLogger;
    opened: Opened;
    signal: AbortSignal;
  },
) {
  const { env, io, logger, opened } = run;
  const { createSqliteStore } = await import("@ask-user/sqlite"); // loaded only when it is needed
  const store = createSqliteStore({ path: env.ASK_USER_DB?.trim() || `.ask-user/${plugin.name}.db`, logger });
  opened.store = store;
  const instanceId = randomUUID();
  const instance = await plugin.create({ config, logger, coordination: store, instanceId });
  opened.instance = instance;
  const handle = instance.handleWebhook;
  if (instance.listen && handle) {
    const server = await serveWebhook((request) => handle.call(instance, request), instance.listen);
    opened.server = server;
    const urls = instance.listen.paths.map((path) => `${server.origin}${path}`);
    io.stderr.write(`${plugin.name}: the webhook is served at ${urls.join(" and ")}\n`);
  }
  const locale = env.ASK_USER_LOCALE?.trim();
  const broker = createAskUser({
    store,
    channels: [instance],
    logger,
    instanceId,
    ...(locale ? { locale } : {}),
  });
  opened.broker = broker;
  await instance.start(broker);
  await broker.ready;
  io.stderr.write(`${instance.describe}: waiting for an answer in ${run.target}…\n`);
  const channel = instance.name;
  return broker.ask(prompt, {
    target: { channel, conversation: run.target },
    signal: run.signal,
    ...(run.creator === undefined ? {} : { creator: { channel, userId: run.creator } }),
  });
}
