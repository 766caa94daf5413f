import { readFile } from "node:fs/promises";
import { type AskUserResult, formatTime } from "@ask-user/core";
import type { CreateQuestionBody, PublicQuestion } from "../api.ts";
import { parseTarget } from "../api.ts";
import { type QuestionBackend, waitForResult } from "../backend.ts";
import { paint } from "./color.ts";
import { type Command, connect, GATEWAY_OPTIONS, parse, single, URL_HELP } from "./command.ts";
import { formatDuration, headline, secondsLeft, whereToAnswer } from "./format.ts";
import { type CliIo, EXIT, InputError, readAll, reportError, UsageError, writeLine } from "./io.ts";

const HELP = `Usage: ask-user ask FILE|- [options]

Puts the questions in FILE (the ask_user tool input as JSON; "-" reads stdin) to a person through the
gateway, waits for the answer and prints the result JSON on stdout. While it waits, stderr shows how
long is left.

Options:
  --target CHANNEL:ID  where to ask, e.g. telegram:123456 (default: the gateway's default target)
  --timeout SECONDS    how long the person has to answer (sets timeoutSeconds; default 900)
  --run-id ID          the agent run the question belongs to
${URL_HELP}
  -h, --help           show this help

Input, e.g.:
  {"questions":[{"id":"deploy_target","header":"Deploy","question":"Where should I deploy?",
    "options":[{"label":"Staging (Recommended)"},{"label":"Production"}]}]}

Exit codes: 0 answered · 3 no answer (skipped, expired, cancelled, undeliverable) · 2 bad input ·
1 gateway error · 130 interrupted (Ctrl-C cancels the question).`;

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
      body.timeoutSeconds = Number(values.timeout);
    }
    if (values["run-id"] !== undefined) body.runId = values["run-id"];

    const backend = connect(context, values.url);
    let question: PublicQuestion;
    try {
      question = await backend.create(body);
    } catch (error) {
      return reportError(context.io, error);
    }
    return waitAndPrint(backend, question, context.io, backend.url);
  },
};

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

async function waitAndPrint(
  backend: QuestionBackend,
  question: PublicQuestion,
  io: CliIo,
  panelUrl: string,
): Promise<number> {
  const controller = new AbortController();
  let interrupts = 0;
  let forceStop: () => void = () => {};
  const forced = new Promise<"forced">((resolve) => {
    forceStop = () => resolve("forced");
  });
  const removeInterrupt = io.onInterrupt?.(() => {
    interrupts += 1;
    if (interrupts === 1) controller.abort();
    else forceStop();
  });
  const stopCountdown = showWaiting(question, io, panelUrl);
  const waiting = waitForResult(backend, question, { signal: controller.signal });
  waiting.catch(() => {}); // A second Ctrl-C stops waiting for it; its failure is then of no interest.
  let outcome: AskUserResult | "forced";
  try {
    outcome = await Promise.race([waiting, forced]);
  } catch (error) {
    stopCountdown();
    return reportError(io, error);
  } finally {
    removeInterrupt?.();
  }
  stopCountdown();
  if (outcome === "forced") {
    writeLine(io.stderr, `Stopped without waiting for question ${question.id} to be cancelled.`);
    return EXIT.interrupted;
  }
  writeLine(io.stdout, JSON.stringify(outcome, null, 2));
  if (interrupts > 0) {
    const cancelled = outcome.status === "no_answer" && outcome.reason === "cancelled";
    const ended = outcome.status === "answered" ? "answered" : outcome.reason;
    writeLine(
      io.stderr,
      cancelled
        ? `✖ Cancelled question ${question.id}.`
        : `Interrupted; question ${question.id} had already ended (${ended}).`,
    );
    return EXIT.interrupted;
  }
  return outcome.status === "answered" ? EXIT.ok : EXIT.noAnswer;
}

/**
 * Tells the person that `ask` waits and where to answer (the chat, the web panel, the terminal) — on a
 * terminal, above a countdown line updated each second; otherwise as one line. Returns the stopper.
 */
function showWaiting(question: PublicQuestion, io: CliIo, panelUrl: string): () => void {
  if (!io.isTTY) {
    writeLine(
      io.stderr,
      `Waiting for an answer to "${headline(question)}" until ${formatTime(question.expiresAt, "en", Date.now())} ` +
        `(question ${question.id}). ${whereToAnswer(question, panelUrl)}`,
    );
    return () => {};
  }
  const p = paint(io.color?.stderr === true);
  writeLine(io.stderr, p.dim(whereToAnswer(question, panelUrl)));
  const render = () => {
    const left = p.bold(`${formatDuration(secondsLeft(question))} left`);
    io.stderr.write(
      `\r\x1b[2K⏳ Waiting for an answer to "${headline(question)}" — ${left} (question ${question.id})`,
    );
  };
  render();
  const timer = setInterval(render, 1000);
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    clearInterval(timer);
    io.stderr.write("\r\x1b[2K");
  };
}
