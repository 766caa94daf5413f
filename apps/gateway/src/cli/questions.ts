import type { AskUserClient, ListFilter } from "@ask-user/client";
import type { Answers, QuestionStatus } from "@ask-user/core";
import { TERMINAL_STATUSES } from "@ask-user/core";
import type { PublicQuestion } from "../api.ts";
import { paint } from "./color.ts";
import { type Command, connect, GATEWAY_OPTIONS, listAll, parse, single, URL_HELP } from "./command.ts";
import { formatQuestion, formatTable } from "./format.ts";
import { cliCommand } from "./invocation.ts";
import { type CliIo, EXIT, reportError, UsageError, writeLine } from "./io.ts";

const STATUSES: readonly string[] = ["pending", ...TERMINAL_STATUSES];

/** `-o json` / `--output json`, taken by every command that prints questions. */
const OUTPUT_OPTIONS = { ...GATEWAY_OPTIONS, output: { type: "string", short: "o" } } as const;

const OUTPUT_HELP = `  -o, --output FORMAT text (default) or json
${URL_HELP}
  -h, --help          show this help`;

/** `--json` gives answers (to \`answer\`) and nothing else: say so where it is not taken. */
function refuseJsonFlag(args: string[]): void {
  if (args.some((arg) => arg === "--json" || arg.startsWith("--json="))) {
    throw new UsageError("--json gives the answers to `ask-user answer`; for JSON output use -o json.");
  }
}

function outputFormat(value: string | undefined): "json" | "text" {
  if (value === undefined || value === "text" || value === "json") return value ?? "text";
  throw new UsageError(`--output must be text or json (got "${value}").`);
}

/** `ask-user list`. */
export const listCommand: Command = {
  name: "list",
  summary: "list questions: id, status, question, time left or answer",
  help: `Usage: ask-user list [options]

Lists the gateway's questions.

Options:
  --status STATUS     only questions in this status: ${STATUSES.join(", ")}
  --run-id ID         only questions of this agent run
  -o, --output FORMAT text (default) or json: {"questions":[…]}
${URL_HELP}
  -h, --help          show this help`,
  async run(args, context) {
    refuseJsonFlag(args);
    const { values } = parse(
      args,
      { ...OUTPUT_OPTIONS, status: { type: "string" }, "run-id": { type: "string" } },
      false,
    );
    const output = outputFormat(values.output);
    if (values.status !== undefined && !STATUSES.includes(values.status)) {
      throw new UsageError(`--status must be one of ${STATUSES.join(", ")} (got "${values.status}").`);
    }
    const { io } = context;
    const filter: ListFilter = {};
    if (values.status !== undefined) filter.status = values.status as QuestionStatus;
    if (values["run-id"] !== undefined) filter.runId = values["run-id"];
    const client = connect(context, values.url);
    try {
      const questions = await listAll(client, filter);
      if (output === "json") writeLine(io.stdout, JSON.stringify({ questions }, null, 2));
      else if (questions.length === 0)
        writeLine(io.stdout, `No ${values.status ? `${values.status} ` : ""}questions.`);
      else writeLine(io.stdout, formatTable(questions, Date.now(), paint(io.color?.stdout === true)));
      return EXIT.ok;
    } catch (error) {
      return reportError(io, error, undefined, client.url);
    }
  },
};

/** Prints a question as text or JSON. */
export function printQuestion(io: CliIo, question: PublicQuestion, output: string, panelUrl: string): void {
  writeLine(
    io.stdout,
    output === "json"
      ? JSON.stringify(question, null, 2)
      : formatQuestion(question, {
          panelUrl,
          paint: paint(io.color?.stdout === true),
          command: cliCommand(io.env, panelUrl),
        }),
  );
}

/** A command on one question (`show`, `skip`, `cancel`): parse, call, print the question. */
function questionCommand(spec: {
  name: string;
  summary: string;
  help: string;
  call(client: AskUserClient, id: string): Promise<PublicQuestion>;
}): Command {
  return {
    name: spec.name,
    summary: spec.summary,
    help: spec.help,
    async run(args, context) {
      refuseJsonFlag(args);
      const { values, positionals } = parse(args, OUTPUT_OPTIONS);
      const id = single(positionals, "question ID");
      const output = outputFormat(values.output);
      const client = connect(context, values.url);
      try {
        printQuestion(context.io, await spec.call(client, id), output, client.url);
        return EXIT.ok;
      } catch (error) {
        return reportError(context.io, error, id, client.url);
      }
    },
  };
}

/** `ask-user show ID`. */
export const showCommand = questionCommand({
  name: "show",
  summary: "show one question: its options, status, time left and answers",
  help: `Usage: ask-user show ID [options]

Shows one question: where it went, its questions and options, and the time left or how it ended.

Options:
${OUTPUT_HELP}`,
  call: (client, id) => client.get(id),
});

/** `ask-user skip ID`. */
export const skipCommand = questionCommand({
  name: "skip",
  summary: "skip a pending question (the agent gets no_answer: skipped)",
  help: `Usage: ask-user skip ID [options]

Declines a pending question as an operator; the agent gets {"status":"no_answer","reason":"skipped"}.

Options:
${OUTPUT_HELP}`,
  call: (client, id) => client.skip(id),
});

/** `ask-user cancel ID`. */
export const cancelCommand = questionCommand({
  name: "cancel",
  summary: "cancel a pending question (the agent gets no_answer: cancelled)",
  help: `Usage: ask-user cancel ID [options]

Withdraws a pending question; the agent gets {"status":"no_answer","reason":"cancelled"}.

Options:
${OUTPUT_HELP}`,
  call: (client, id) => client.cancel(id),
});

/** `{"deploy_target":["Staging"]}` or `{"answers":{…}}`; a single string counts as a one-value list. */
export function parseAnswers(json: string): Answers {
  const example = `e.g. --json '{"deploy_target":["Staging"]}'`;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new UsageError(
      `--json is not valid JSON (${error instanceof Error ? error.message : String(error)}); ${example}`,
    );
  }
  if (isObject(value) && Object.keys(value).length === 1 && isObject(value.answers)) value = value.answers;
  if (!isObject(value) || Object.keys(value).length === 0) {
    throw new UsageError(`--json must be an object of question id → values, ${example}`);
  }
  const answers: Answers = {};
  for (const [key, entry] of Object.entries(value)) {
    if (typeof entry === "string") answers[key] = [entry];
    else if (Array.isArray(entry) && entry.every((item) => typeof item === "string")) answers[key] = entry;
    else throw new UsageError(`--json: the value of "${key}" must be a list of strings, ${example}`);
  }
  return answers;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
