import type { ChannelPlugin } from "@ask-user/core";

/** The exit codes: 0 answered (and `--help`) · 1 failure · 2 bad usage or input · 3 no answer · 130 Ctrl-C. */
export const EXIT = { answered: 0, failed: 1, usage: 2, noAnswer: 3, interrupted: 130 } as const;

/** The runner's own variables, after the channel's. */
function runnerVariables(plugin: ChannelPlugin): Array<[string, string]> {
  return [
    ["ASK_USER_DB", `The SQLite file that keeps the question (default .ask-user/${plugin.name}.db)`],
    ["ASK_USER_LOCALE", "The language of the prompt: en or de (default en)"],
  ];
}

/**
 * The usage text of the standalone runner for `plugin`, generated from its `variables`: the command
 * line, what it does, every variable with its description (required ones marked), and the exit codes.
 *
 * @example
 * console.log(usageText(channelPlugin)); // Usage: ask-user-channel telegram --target CONVERSATION …
 */
export function usageText(plugin: ChannelPlugin): string {
  const variables: Array<[string, string]> = [
    ...plugin.variables.map((v): [string, string] => [
      v.name,
      v.required ? `${v.description} (required)` : v.description,
    ]),
    ...runnerVariables(plugin),
  ];
  const width = Math.max(...variables.map(([name]) => name.length)) + 2;
  return [
    `Usage: ask-user-channel ${plugin.name} --target CONVERSATION [--creator USER_ID] FILE|-`,
    "",
    `Asks the questions in FILE (ask_user tool input as JSON; "-" reads stdin) in ${plugin.title} alone and`,
    "prints the result JSON. With --creator, only that user may answer (use it in group chats).",
    "",
    "Environment:",
    ...variables.map(([name, description]) => `  ${name.padEnd(width)}${description}`),
    "",
    "Exit codes: 0 answered · 3 no answer · 2 bad input · 1 failure · 130 interrupted.",
  ].join("\n");
}
