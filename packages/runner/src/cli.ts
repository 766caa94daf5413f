/**
 * `ask-user-channel <channel> --target CONVERSATION [--creator USER_ID] FILE|-`: the standalone runner
 * for one of the channel packages, loaded by name from `@ask-user/<channel>/plugin`.
 */
import { isChannelPlugin } from "@ask-user/core";
import { processIo, runStandalone, type StandaloneIo } from "./runner.ts";
import { EXIT } from "./usage.ts";

/** The channels `ask-user-channel` runs, each from its package's `./plugin` module. */
export const STANDALONE_CHANNELS = ["telegram", "discord", "slack"] as const;

const USAGE = `Usage: ask-user-channel <${STANDALONE_CHANNELS.join("|")}> --target CONVERSATION [--creator USER_ID] FILE|-

Asks the questions in FILE (ask_user tool input as JSON; "-" reads stdin) in one chat platform alone and
prints the result JSON. \`ask-user-channel <channel> --help\` lists the channel's variables.`;

/**
 * The `ask-user-channel` command: picks the channel by its first argument and runs it alone. Resolves
 * with the exit code (2 for a missing or unknown channel).
 *
 * @example
 * process.exitCode = await main(process.argv.slice(2), process.env);
 */
export async function main(
  argv: string[],
  env: Readonly<Record<string, string | undefined>>,
  io: StandaloneIo = processIo(),
): Promise<number> {
  const [name, ...rest] = argv;
  if (name === "--help" || name === "-h") {
    io.stdout.write(`${USAGE}\n`);
    return EXIT.answered;
  }
  if (!STANDALONE_CHANNELS.some((channel) => channel === name)) {
    const given = name === undefined ? "No channel given." : `Unknown channel "${name}".`;
    io.stderr.write(`${given}\n\n${USAGE}\n`);
    return EXIT.usage;
  }
  const { channelPlugin } = (await import(`@ask-user/${name}/plugin`)) as { channelPlugin?: unknown };
  if (!isChannelPlugin(channelPlugin)) {
    io.stderr.write(`ask-user-channel: @ask-user/${name}/plugin exports no channelPlugin.\n`);
    return EXIT.failed;
  }
  return runStandalone({ plugin: channelPlugin, argv: rest, env, io });
}
