import { parseArgs } from "node:util";
import type { ChannelPlugin } from "@ask-user/core";

/** The runner's command line, read: `--help`, or what to ask where, or why it can't be read. */
export type CommandLine =
  | { help: true }
  | { help: false; target: string; creator: string | undefined; file: string }
  | { error: string };

/**
 * Reads `--target`, `--creator`, `-h/--help` and exactly one FILE (`-` for stdin). The target must be a
 * conversation of the plugin's platform (`plugin.parseConversation`).
 */
export function parseCommandLine(argv: string[], plugin: ChannelPlugin): CommandLine {
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
    return { error: error instanceof Error ? error.message : String(error) };
  }
  if (values.help) return { help: true };
  const { target, creator } = values;
  const file = positionals[0];
  if (!target) return { error: "--target is required." };
  if (file === undefined || positionals.length !== 1) return { error: 'Give one FILE, or "-" for stdin.' };
  if (plugin.parseConversation(target) === undefined)
    return { error: `--target ${target} is not a ${plugin.title} conversation.` };
  return { help: false, target, creator: creator || undefined, file };
}
