/**
 * The standalone runner: asks one question through Discord alone and prints the result.
 *
 *   tsx src/main.ts --target <conversation> [--creator <user id>] <file.json|->
 *
 * Environment: `DISCORD_BOT_TOKEN` (required), `DISCORD_API_URL` (optional REST base), `ASK_USER_DB`
 * (the SQLite file, default `.ask-user/discord.db`) and `ASK_USER_LOCALE`. Exit codes: 0 answered ·
 * 3 no answer · 2 bad input · 1 failure · 130 Ctrl-C. The shared part lives in `@ask-user/runner`.
 */
import { isMain, processIo, runStandalone, type StandaloneIo, type StandaloneMain } from "@ask-user/runner";
import { parseTarget } from "./conversation.ts";
import { readDiscordEnv, runDiscord } from "./run.ts";

const USAGE = `Usage: tsx src/main.ts --target CONVERSATION [--creator USER_ID] FILE|-

Asks the questions in FILE (ask_user tool input as JSON; "-" reads stdin) on Discord and prints the
result JSON. CONVERSATION is a channel or thread id, or user:USER_ID for a DM. With --creator, only
that Discord user may answer (use it in guild channels).

Environment: DISCORD_BOT_TOKEN (required), DISCORD_API_URL (REST base, e.g. http://127.0.0.1:PORT/api),
ASK_USER_DB (default .ask-user/discord.db), ASK_USER_LOCALE (en, de).

Exit codes: 0 answered · 3 no answer · 2 bad input · 1 failure · 130 interrupted.`;

/** Where the runner reads and writes; tests pass their own. */
export type MainIo = StandaloneIo;

/**
 * Runs the standalone runner and resolves with its exit code.
 *
 * @example
 * process.exitCode = await main(["--target", "user:80351110224678912", "question.json"], process.env);
 */
export const main: StandaloneMain<MainIo> = (argv, env, io = processIo()) =>
  runStandalone({
    platform: "discord",
    usage: USAGE,
    validTarget: (conversation) => parseTarget(conversation) !== undefined,
    readEnv: readDiscordEnv,
    start: (context) => runDiscord(context),
    argv,
    env,
    io,
  });

if (isMain(import.meta.url)) process.exitCode = await main(process.argv.slice(2), process.env);
