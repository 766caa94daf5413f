import { type Command, connect, GATEWAY_OPTIONS, parse, URL_HELP } from "./command.ts";
import { answerInteractively } from "./interactive.ts";
import { EXIT, reportError, UsageError } from "./io.ts";
import { parseAnswers, printQuestion } from "./questions.ts";

/** `ask-user answer [ID] [--json ANSWERS]`: interactive in a terminal, scriptable with `--json`. */
export const answerCommand: Command = {
  name: "answer",
  summary: "answer pending questions with the arrow keys, or one with --json '{…}'",
  help: `Usage: ask-user answer [ID] [options]
       ask-user answer ID --json ANSWERS [options]

In a terminal, without --json: pick a pending question (or the one ID names) and answer it with the
arrow keys — Space ticks options of a multi-select, Enter confirms, "Other…" lets you type an answer,
"Skip" declines the question, Esc stops without sending. Answers already picked in a chat or the web
panel are preselected. The next pending question follows until none is left.

With --json: answers question ID as an operator. ANSWERS maps each question id to its values (option
labels, or free text): '{"deploy_target":["Staging"]}' or '{"answers":{"deploy_target":["Staging"]}}'.
A value close to a label ("Prodution") is refused with "did you mean"; mark your own words with
"other: " to send them as they are: '{"deploy_target":["other: Prodution"]}'.

Options:
  --json ANSWERS      the answers (needed when not in a terminal)
  -o, --output FORMAT with --json: print the question as text (default) or json
${URL_HELP}
  -h, --help          show this help`,
  async run(args, context) {
    const { values, positionals } = parse(args, {
      ...GATEWAY_OPTIONS,
      output: { type: "string", short: "o" },
      json: { type: "string" },
    });
    if (positionals.length > 1)
      throw new UsageError(`Unexpected argument: ${positionals.slice(1).join(" ")}`);
    const id = positionals[0] || undefined;
    const output = values.output ?? "text";
    if (output !== "text" && output !== "json") {
      throw new UsageError(`--output must be text or json (got "${output}").`);
    }
    const { io } = context;
    if (values.json === undefined) {
      if (!io.terminal) {
        throw new UsageError(
          "Missing --json with the answers (run it in a terminal to pick and answer interactively).",
        );
      }
      const client = connect(context, values.url);
      try {
        return await answerInteractively(client, io.terminal, id);
      } catch (error) {
        return reportError(io, error, id, client.url);
      }
    }
    if (id === undefined)
      throw new UsageError("Missing question ID (the answers given with --json are for it).");
    const answers = parseAnswers(values.json);
    const client = connect(context, values.url);
    try {
      printQuestion(io, await client.answer(id, answers), output, client.url);
      return EXIT.ok;
    } catch (error) {
      return reportError(io, error, id, client.url);
    }
  },
};
