/**
 * The standalone runner: asks one question through Telegram alone and prints the result.
 *
 *   tsx src/main.ts --target <conversation> [--creator <user id>] <file.json|->
 *
 * Environment: the `TELEGRAM_*` variables of `runTelegram`, `ASK_USER_DB` (the SQLite file, default
 * `.ask-user/telegram.db`) and `ASK_USER_LOCALE`. Exit codes: 0 answered · 3 no answer · 2 bad input ·
 * 1 failure · 130 Ctrl-C. The shared part lives in `@ask-user/runner`.
 */
import { isMain, processIo, runStandalone, type StandaloneIo, type StandaloneMain } from "@ask-user/runner";
import { parseConversation } from "./conversation.ts";
import type { RetryOptions } from "./retry.ts";
import { readTelegramEnv, runTelegram } from "./run.ts";

const USAGE = `Usage: tsx src/main.ts --target CONVERSATION [--creator USER_ID] FILE|-

Asks the questions in FILE (ask_user tool input as JSON; "-" reads stdin) in a Telegram chat and prints
the result JSON. CONVERSATION is a chat id, or CHAT_ID:THREAD_ID for a forum topic. With --creator, only
that Telegram user may answer (use it in groups).

Environment: TELEGRAM_BOT_TOKEN (required), TELEGRAM_API_ROOT, TELEGRAM_WEBHOOK_URL + TELEGRAM_WEBHOOK_SECRET
(webhook mode, served on TELEGRAM_WEBHOOK_HOST:TELEGRAM_WEBHOOK_PORT, default 127.0.0.1:8443, at the URL's
path; a URL without a path gets /channels/telegram), ASK_USER_DB (default .ask-user/telegram.db),
ASK_USER_LOCALE (en, de).

Exit codes: 0 answered · 3 no answer · 2 bad input · 1 failure · 130 interrupted.`;

/** Where the runner reads and writes; tests pass their own. */
export interface MainIo extends StandaloneIo {
  /** Retry bounds of the Bot API calls (tests shorten them). */
  retry?: RetryOptions;
}

/**
 * Runs the standalone runner and resolves with its exit code.
 *
 * @example
 * process.exitCode = await main(process.argv.slice(2), process.env);
 */
export const main: StandaloneMain<MainIo> = (argv, env, io = processIo()) =>
  runStandalone({
    platform: "telegram",
    usage: USAGE,
    validTarget: (conversation) => parseConversation(conversation) !== undefined,
    readEnv: readTelegramEnv,
    // Alone, the webhook handler gets a port of its own (the gateway mounts it on its one port instead).
    start: (context) =>
      runTelegram({ ...context, listen: true, ...(io.retry === undefined ? {} : { retry: io.retry }) }),
    argv,
    env,
    io,
  });

if (isMain(import.meta.url)) process.exitCode = await main(process.argv.slice(2), process.env);
