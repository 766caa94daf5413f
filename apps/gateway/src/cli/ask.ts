import { readFile } from "node:fs/promises";
import { type AskUserInput, LIMITS } from "@ask-user/core";
import type { CreateQuestionBody, PublicQuestion } from "../api.ts";
import { parseTarget } from "../api.ts";
import { refusedChannelHint } from "./channel-hint.ts";
import { type Command, connect, GATEWAY_OPTIONS, parse, single, URL_HELP } from "./command.ts";
import { type CliIo, InputError, readAll, reportError, UsageError, writeLine } from "./io.ts";
import { waitAndPrint } from "./waiting.ts";

const HELP = `Usage: ask-user ask FILE|- [options]

Puts the questions in FILE (the ask_user tool input as JSON; "-" reads stdin) to a person through the
gateway, waits for the answer and prints the result JSON on stdout. While it waits, stderr shows how
long is left. A gateway restart or a dropped connection does not end the wait: stderr says so in one
line ("gateway unreachable, retrying in 1 s…", then "reconnected…") and the answer given meanwhile
still arrives, as long as the gateway comes back within a minute past the question's deadline. If
ask stops anyway, "ask-user wait ID" waits on the question again.

Options:
  --target CHANNEL:ID  where to ask, e.g. telegram:123456 (default: the gateway's default target)
  --timeout SECONDS    how long the person has to answer, 30-3600 (sets timeoutSeconds; default 900)
  --run-id ID          the agent run the question belongs to
${URL_HELP}
  -h, --help           show this help

Input, e.g.:
  {"questions":[{"id":"deploy_target","header":"Deploy","question":"Where should I deploy?",
    "options":[{"label":"Staging (Recommended)"},{"label":"Production"}]}]}

Exit codes: 0 answered · 3 no answer (skipped, expired, cancelled, undeliverable) · 2 bad input ·
1 gateway error · 130 interrupted (Ctrl-C cancels the question; a second Ctrl-C stops at once).`;

/** `ask-user ask`: create a question, wait for it, print the `AskUserResult`. */
export const askCommand: Command = {
  name: "ask",
  summary: "ask the questions in a JSON file (or stdin) and print the result JSON",
  help: HELP,
  async run(args, context) {
    const { values, positionals } = parse(args, {
      ...GATEWAY_OPTIONS,
      target: { type: "string" },
      timeout: { type: "string" },
      "run-id": { type: "string" },
    });
    const file = single(positionals, "FILE (the tool input as JSON, or - for stdin)");
    const body = await readInput(file, context.io);
    if (values.target !== undefined) {
      const target = parseTarget(values.target);
      if (!target)
        throw new UsageError(
          `--target must look like CHANNEL:ID, e.g. telegram:123456 (got "${values.target}").`,
        );
      body.target = target;
    }
    if (values.timeout !== undefined) {
      if (!/^\d+$/.test(values.timeout))
        throw new UsageError(`--timeout must be a whole number of seconds (got "${values.timeout}").`);
      const seconds = Number(values.timeout);
      const { timeoutMinSeconds: min, timeoutMaxSeconds: max } = LIMITS;
      // The gateway would clamp it silently (an agent's value); a person who typed it is told instead.
      if (seconds < min || seconds > max)
        throw new UsageError(
          `--timeout must be ${min}-${max} seconds (got ${seconds}): use --timeout ${seconds < min ? min : max}.`,
        );
      body.timeoutSeconds = seconds;
    }
    if (values["run-id"] !== undefined) body.runId = values["run-id"];

    const client = connect(context, values.url);
    let question: PublicQuestion;
    try {
      // The file's object as it is (tool input, target, runId, …): the gateway judges all of it.
      question = await client.create(body as unknown as AskUserInput);
    } catch (error) {
      const code = reportError(context.io, error, undefined, client.url);
      const hint = await refusedChannelHint(error, targetChannel(body.target));
      if (hint) writeLine(context.io.stderr, `  ${hint}`);
      return code;
    }
    return waitAndPrint(client, question, context.io, "cancel");
  },
};

/** The channel a question's target names (`"telegram:42"` or `{ channel, conversation }`), if any. */
function targetChannel(target: CreateQuestionBody["target"]): string | undefined {
  if (typeof target === "string") return parseTarget(target)?.channel;
  return typeof target?.channel === "string" ? target.channel : undefined;
}

async function readInput(file: string, io: CliIo): Promise<CreateQuestionBody> {
  let text: string;
  const source = file === "-" ? "stdin" : file;
  try {
    text = file === "-" ? await readAll(io.stdin) : await readFile(file, "utf8");
  } catch (error) {
    const reason = (error as { code?: string }).code === "ENOENT" ? "no such file" : String(error);
    throw new InputError(`Cannot read ${source}: ${reason}.`);
  }
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch (error) {
    throw new InputError(
      `${source} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new InputError(`${source} must hold a JSON object with "questions" (the ask_user tool input).`);
  }
  return input as CreateQuestionBody;
}
