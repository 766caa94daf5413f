/**
 * The standalone runner: asks one question through Slack alone and prints the result.
 *
 *   tsx src/main.ts --target <conversation> [--creator <user id>] <file.json|->
 *
 * Environment: the `SLACK_*` variables of `runSlack`, `ASK_USER_DB` (the SQLite file, default
 * `.ask-user/slack.db`) and `ASK_USER_LOCALE`. Exit codes: 0 answered · 3 no answer · 2 bad input ·
 * 1 failure · 130 Ctrl-C. The shared part lives in `@ask-user/runner`.
 */
import { isMain, runStandalone, type StandaloneIo } from "@ask-user/runner";
import { readSlackEnv, runSlack } from "./run.ts";
import { parseAddress } from "./target.ts";

const USAGE = `usage: tsx src/main.ts --target CONVERSATION [--creator USER_ID] FILE|-

Asks the questions in FILE (ask_user tool input as JSON; "-" reads stdin) in Slack and prints the result
JSON. CONVERSATION is a channel id (C…), a user id (U…) for direct messages, optionally followed by
:THREAD_TS. With --creator, only that Slack user may answer (use it in channels).

Environment: SLACK_BOT_TOKEN (required), SLACK_APP_TOKEN (Socket Mode) or SLACK_SIGNING_SECRET (HTTP mode:
Request URL <public URL>/channels/slack/events, served on SLACK_HOST:SLACK_PORT, default 127.0.0.1:3000),
SLACK_API_URL, ASK_USER_DB (default .ask-user/slack.db), ASK_USER_LOCALE (en, de).

Exit codes: 0 answered · 3 no answer · 2 bad input · 1 failure · 130 interrupted.`;

/** Where the standalone runner writes and what stops it (tests pass their own). */
export interface MainIo {
  out(text: string): void;
  err(text: string): void;
  /** Reads stdin (for the file `-`). */
  stdin(): Promise<string>;
  /** Aborting cancels the question (Ctrl-C). */
  signal?: AbortSignal;
}

function standaloneIo(io: MainIo): StandaloneIo {
  const { signal } = io;
  return {
    stdout: { write: (text) => io.out(text) },
    stderr: { write: (text) => io.err(text) },
    stdin: (async function* () {
      yield await io.stdin();
    })(),
    onInterrupt(handler) {
      if (signal?.aborted) handler();
      signal?.addEventListener("abort", handler, { once: true });
      return () => signal?.removeEventListener("abort", handler);
    },
  };
}

/**
 * The standalone runner: asks the question in the file (or stdin for `-`) in `--target` through Slack
 * alone and prints the result JSON. Returns the exit code: 0 answered, 3 no answer, 2 bad usage or input,
 * 1 failure, 130 when `io.signal` aborted (without `io`: on Ctrl-C); either cancels the question.
 *
 * @example
 * // SLACK_BOT_TOKEN=xoxb-… SLACK_APP_TOKEN=xapp-… tsx src/main.ts --target C0123ABCD examples/deploy-target.json
 * process.exitCode = await main(process.argv.slice(2), process.env);
 */
export function main(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
  io?: MainIo,
): Promise<number> {
  return runStandalone({
    platform: "slack",
    usage: USAGE,
    validTarget: (conversation) => parseAddress(conversation) !== undefined, // or throws saying why not
    readEnv: readSlackEnv,
    // Alone, HTTP mode gets a port of its own (the gateway mounts the same handler on its one port).
    start: (context) => runSlack({ ...context, listen: true }),
    waitingLine: (describe) => `${describe} is waiting for an answer`,
    argv,
    env,
    ...(io === undefined ? {} : { io: standaloneIo(io) }),
  });
}

if (isMain(import.meta.url)) process.exitCode = await main(process.argv.slice(2), process.env);
