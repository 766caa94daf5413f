import type { Answers, QuestionStatus } from "@ask-user/core";
import { TERMINAL_STATUSES } from "@ask-user/core";
import type { PublicQuestion } from "../api.ts";
import type { HttpBackend } from "../http-client.ts";
import { type Command, connect, GATEWAY_OPTIONS, parse, single, URL_HELP } from "./command.ts";
import { formatQuestion, formatTable } from "./format.ts";
import { EXIT, reportError, UsageError, writeLine } from "./io.ts";

const STATUSES: readonly string[] = ["pending", ...TERMINAL_STATUSES];

const OUTPUT_OPTIONS = {
  ...GATEWAY_OPTIONS,
  json: { type: "boolean" },
} as const;

const OUTPUT_HELP = `  --json              print the question as JSON
${URL_HELP}
  -h, --help          show this help`;

/** `ask-user list`. */
export const listCommand: Command = {
  name: "list",
  summary: "list questions: id, status, question, time left or answer",
  help: `Usage: ask-user list [options]

Lists the gateway's questions.

Options:
  --status STATUS     only questions in this status: ${STATUSES.join(", ")}
  --run-id ID         only questions of this agent run
  --json              print {"questions":[…]} as JSON
${URL_HELP}
  -h, --help          show this help`,
  async run(args, context) {
    const { values } = parse(
      args,
      { ...OUTPUT_OPTIONS, status: { type: "string" }, "run-id": { type: "string" } },
      false,
    );
    if (values.status !== undefined && !STATUSES.includes(values.status)) {
      throw new UsageError(`--status must be one of ${STATUSES.join(", ")} (got "${values.status}").`);
    }
    const { io } = context;
    try {
      const questions = await connect(context, values.url).list({
        status: values.status as QuestionStatus | undefined,
        runId: values["run-id"],
      });
      if (values.json) writeLine(io.stdout, JSON.stringify({ questions }, null, 2));
      else if (questions.length === 0)
        writeLine(io.stdout, `No ${values.status ? `${values.status} ` : ""}questions.`);
      else writeLine(io.stdout, formatTable(questions));
      return EXIT.ok;
    } catch (error) {
      return reportError(io, error);
    }
  },
};

/** A command on one question (`show`, `skip`, `cancel`, `answer`): parse, call, print the question. */
function questionCommand(spec: {
  name: string;
  summary: string;
  help: string;
  call(backend: HttpBackend, id: string, json: string | undefined): Promise<PublicQuestion>;
  takesAnswers?: boolean;
}): Command {
  return {
    name: spec.name,
    summary: spec.summary,
    help: spec.help,
    async run(args, context) {
      const { id, url, output, answersJson } = parseQuestionArgs(args, spec.takesAnswers === true);
      const { io } = context;
      try {
        const question = await spec.call(connect(context, url), id, answersJson);
        writeLine(
          io.stdout,
          output === "json" ? JSON.stringify(question, null, 2) : formatQuestion(question),
        );
        return EXIT.ok;
      } catch (error) {
        return reportError(io, error, id);
      }
    },
  };
}

const OUTPUT_OPTION = { output: { type: "string", short: "o" } } as const;

/** The id, `--url`, the output format and (for `answer`) the `--json` answers of a one-question command. */
function parseQuestionArgs(args: string[], takesAnswers: boolean) {
  let parsed: { id: string; url: string | undefined; output: string; answersJson?: string };
  if (takesAnswers) {
    // `answer` takes the answers with --json, so its JSON output is --output json.
    const { values, positionals } = parse(args, {
      ...GATEWAY_OPTIONS,
      ...OUTPUT_OPTION,
      json: { type: "string" },
    });
    if (values.json === undefined) throw new UsageError("Missing --json with the answers.");
    const id = single(positionals, "question ID");
    parsed = { id, url: values.url, output: values.output ?? "text", answersJson: values.json };
  } else {
    const { values, positionals } = parse(args, { ...OUTPUT_OPTIONS, ...OUTPUT_OPTION });
    const id = single(positionals, "question ID");
    parsed = { id, url: values.url, output: values.output ?? (values.json ? "json" : "text") };
  }
  if (parsed.output !== "json" && parsed.output !== "text") {
    throw new UsageError(`--output must be text or json (got "${parsed.output}").`);
  }
  return parsed;
}

/** `ask-user show ID`. */
export const showCommand = questionCommand({
  name: "show",
  summary: "show one question: its options, status, time left and answers",
  help: `Usage: ask-user show ID [options]

Shows one question: where it went, its questions and options, and the time left or how it ended.

Options:
${OUTPUT_HELP}`,
  call: (backend, id) => backend.get(id),
});

/** `ask-user answer ID --json …`. */
export const answerCommand = questionCommand({
  name: "answer",
  summary: 'answer a pending question, e.g. --json \'{"deploy_target":["Staging"]}\'',
  help: `Usage: ask-user answer ID --json ANSWERS [options]

Answers a pending question as an operator. ANSWERS maps each question id to its values (option labels,
or free text), as JSON: '{"deploy_target":["Staging"]}' or '{"answers":{"deploy_target":["Staging"]}}'.
A value close to a label ("Prodution") is refused with "did you mean"; mark your own words with
"other: " to send them as they are: '{"deploy_target":["other: Prodution"]}'.

Options:
  --json ANSWERS      the answers (required)
  -o, --output FORMAT text (default) or json
${URL_HELP}
  -h, --help          show this help`,
  takesAnswers: true,
  call: (backend, id, json) => backend.answer(id, parseAnswers(json ?? "")),
});

/** `ask-user skip ID`. */
export const skipCommand = questionCommand({
  name: "skip",
  summary: "skip a pending question (the agent gets no_answer: skipped)",
  help: `Usage: ask-user skip ID [options]

Declines a pending question as an operator; the agent gets {"status":"no_answer","reason":"skipped"}.

Options:
${OUTPUT_HELP}`,
  call: (backend, id) => backend.skip(id),
});

/** `ask-user cancel ID`. */
export const cancelCommand = questionCommand({
  name: "cancel",
  summary: "cancel a pending question (the agent gets no_answer: cancelled)",
  help: `Usage: ask-user cancel ID [options]

Withdraws a pending question; the agent gets {"status":"no_answer","reason":"cancelled"}.

Options:
${OUTPUT_HELP}`,
  call: (backend, id) => backend.cancel(id, { strict: true }),
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
