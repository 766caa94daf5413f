import type { Readable, Writable } from "node:stream";
import { type AskUserClient, GatewayError } from "@ask-user/client";
import { type Answers, type PromptQuestion, renderAnswers } from "@ask-user/core";
import { cancel, intro, isCancel, log, multiselect, outro, select, text } from "@clack/prompts";
import type { PublicQuestion } from "../api.ts";
import { listAll } from "./command.ts";
import { formatDuration, headline, secondsLeft, targetText } from "./format.ts";
import { EXIT } from "./io.ts";

/** The terminal the prompts read keys from and draw on. */
export interface Terminal {
  input: Readable;
  output: Writable;
}

/** Choice values that are not option labels (labels are never empty, so these cannot collide). */
const OTHER = "\u0000other";
const SKIP = "\u0000skip";
const QUIT = "\u0000quit";

/** What a person chose for one question: values, free text to type, or to skip the whole question. */
type Choice = { kind: "values"; values: string[]; other: boolean } | { kind: "skip" };

/**
 * Reads the picked choice values of one question: the labels picked, whether Other… was picked (its
 * text is asked next), or Skip, which declines the whole question whatever else was ticked.
 */
function readChoice(picked: readonly string[]): Choice {
  if (picked.includes(SKIP)) return { kind: "skip" };
  return {
    kind: "values",
    values: picked.filter((value) => value !== OTHER),
    other: picked.includes(OTHER),
  };
}

/**
 * The choice list of a question: its options (description as the hint), then Other… and Skip. The
 * shared draft (what was picked on a chat platform or in the web panel) is preselected: its labels,
 * and Other… with its text when it holds one.
 */
function choicesFor(question: PromptQuestion, draft: string[] | undefined) {
  const labels = new Set(question.options.map((option) => option.label));
  const options = [
    ...question.options.map((option) =>
      option.description
        ? { value: option.label, label: option.label, hint: option.description }
        : { value: option.label, label: option.label },
    ),
    { value: OTHER, label: "Other…", hint: "type your own answer" },
    { value: SKIP, label: "Skip", hint: "decline the whole question: the agent gets no answer" },
  ];
  const drafted = (draft ?? []).filter((value) => labels.has(value));
  const otherText = (draft ?? []).find((value) => !labels.has(value));
  const initial = otherText === undefined ? drafted : [...drafted, OTHER];
  return { options, initial, otherText };
}

/** How one question ended in the terminal. */
type Outcome =
  | { kind: "answers"; answers: Answers }
  | { kind: "skip" }
  | { kind: "cancel"; staged: boolean }
  /** Staging was refused: the question ended elsewhere meanwhile (409), or a value was refused (422). */
  | { kind: "refused"; message: string };

/**
 * Asks each question of a record in turn with arrow keys and Enter. Each choice but the last is staged
 * in the question's shared draft as it is made, so the web panel and the chat show it (and a later
 * `ask-user answer` preselects it); the last one goes with the answer itself. Typed answers are sent as
 * `other: …`: the person's own words, even when they look like a misspelt label.
 */
async function fill(question: PublicQuestion, terminal: Terminal, client: AskUserClient): Promise<Outcome> {
  const answers: Answers = {};
  const total = question.prompt.questions.length;
  let staged = false;
  for (const [index, q] of question.prompt.questions.entries()) {
    const { options, initial, otherText } = choicesFor(q, question.draft?.[q.id]);
    const count = total > 1 ? ` (${index + 1}/${total})` : "";
    const message = `${q.header}${count}: ${q.question}`;
    const picked = q.multiSelect
      ? await multiselect({ message, options, initialValues: initial, required: true, ...terminal })
      : await select({ message, options, ...(initial[0] ? { initialValue: initial[0] } : {}), ...terminal });
    if (isCancel(picked)) return { kind: "cancel", staged };
    const choice = readChoice(Array.isArray(picked) ? picked : [picked]);
    if (choice.kind === "skip") return { kind: "skip" };
    const values = [...choice.values];
    if (choice.other) {
      const typed = await text({
        message: `${q.header}: your answer`,
        placeholder: "type it and press Enter",
        ...(otherText === undefined ? {} : { initialValue: otherText }),
        validate: (value) => (value?.trim() ? undefined : "Type an answer, or press Esc to stop."),
        ...terminal,
      });
      if (isCancel(typed)) return { kind: "cancel", staged };
      values.push(`other: ${typed.trim()}`);
    }
    answers[q.id] = values;
    if (index === total - 1) break;
    try {
      await client.stage(question.id, q.id, values);
      staged = true;
    } catch (error) {
      if (!(error instanceof GatewayError) || (error.status !== 409 && error.status !== 422)) throw error;
      return { kind: "refused", message: error.message };
    }
  }
  return { kind: "answers", answers };
}

function pickLabel(question: PublicQuestion): { value: string; label: string; hint: string } {
  const first = question.prompt.questions[0];
  const where = targetText(question) ?? "web panel only";
  return {
    value: question.id,
    label: `${headline(question)}: ${first?.question ?? ""}`,
    hint: `${formatDuration(secondsLeft(question))} left · ${where} · ${question.id}`,
  };
}

/**
 * `ask-user answer` in a terminal: pick a pending question (or take the one `id` names), answer each of
 * its questions with the arrow keys, Space and Enter — Other… to type an answer, Skip to decline — each
 * choice staged in the shared draft as it is made, then send it; then the next pending question, until none is left or the person quits. Esc or Ctrl-C stops
 * without sending the question at hand. Returns the exit code.
 */
export async function answerInteractively(
  client: AskUserClient,
  terminal: Terminal,
  id: string | undefined,
): Promise<number> {
  intro(id ? `Answer question ${id}` : "Answer pending questions", terminal);
  let done = 0;
  for (;;) {
    const pending = id ? [await client.get(id)] : await listAll(client, { status: "pending" });
    const open = pending.filter((question) => question.status === "pending");
    if (open.length === 0) {
      const single = pending[0];
      if (id && single) {
        outro(`Question ${id} is ${single.status}: nothing to answer.`, terminal);
        return done > 0 ? EXIT.ok : EXIT.failed;
      }
      outro(done > 0 ? "No more pending questions." : "No pending questions.", terminal);
      return EXIT.ok;
    }
    let question = open[0];
    if (open.length > 1) {
      const picked = await select({
        message: `${open.length} questions wait for an answer. Which one?`,
        options: [...open.map(pickLabel), { value: QUIT, label: "Quit" }],
        ...terminal,
      });
      if (isCancel(picked) || picked === QUIT) {
        outro("Done.", terminal);
        return EXIT.ok;
      }
      question = open.find((candidate) => candidate.id === picked);
    }
    if (!question) continue;
    log.info(`Question ${question.id} · ${formatDuration(secondsLeft(question))} left`, terminal);
    const outcome = await fill(question, terminal, client);
    if (outcome.kind === "cancel") {
      cancel(
        outcome.staged
          ? `Stopped; question ${question.id} is not answered (what you chose stays in its draft).`
          : `Stopped; nothing was sent for question ${question.id}.`,
        terminal,
      );
      return EXIT.interrupted;
    }
    if (outcome.kind === "refused") {
      log.warn(outcome.message, terminal); // it ended elsewhere meanwhile: look again
      continue;
    }
    try {
      if (outcome.kind === "skip") {
        await client.skip(question.id);
        log.success(`Skipped ${headline(question)}: the agent gets no answer.`, terminal);
      } else {
        const sent = await client.answer(question.id, outcome.answers);
        log.success(`Answered ${renderAnswers(sent.prompt, sent.answers ?? outcome.answers)}`, terminal);
      }
      done += 1;
    } catch (error) {
      // Someone answered it elsewhere meanwhile (409) or the answer was refused (422): say so, go on.
      if (!(error instanceof GatewayError) || (error.status !== 409 && error.status !== 422)) throw error;
      log.warn(error.message, terminal);
      continue;
    }
    if (id) {
      outro("Done.", terminal);
      return EXIT.ok;
    }
  }
}
