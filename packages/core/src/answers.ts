import { z } from "zod";
import type { InputIssue } from "./errors.ts";
import { toInputIssues } from "./input-issues.ts";
import { afterOtherPrefix } from "./interpret-question.ts";
import { nearLabel } from "./near-label.ts";
import type { Prompt, PromptQuestion } from "./schema.ts";
import { describeValue } from "./schema-rules.ts";
import { compareKey } from "./text.ts";
import type { Answers } from "./types.ts";

/**
 * Puts one question's values in canonical form (SPEC §3): values equal to a label (ignoring case,
 * quotes, spaces and `(Recommended)`) become the label as authored, in option order; the rest is
 * free text as given (trimmed), in the given order; duplicates dropped.
 */
export function canonicalValues(question: PromptQuestion, values: readonly string[]): string[] {
  const chosen = new Set<number>();
  const free: string[] = [];
  const seenFree = new Set<string>();
  for (const value of values) {
    const key = compareKey(value);
    const index = question.options.findIndex((option) => compareKey(option.label) === key);
    if (index >= 0) {
      chosen.add(index);
    } else if (!seenFree.has(key)) {
      seenFree.add(key);
      free.push(value.trim());
    }
  }
  const labels = question.options.filter((_, index) => chosen.has(index)).map((option) => option.label);
  return [...labels, ...free];
}

/** Answers given directly (HTTP, web panel, MCP), checked against the prompt and made canonical. */
export type AnswersCheck = { ok: true; answers: Answers } | { ok: false; issues: InputIssue[] };

type Ctx = z.core.$RefinementCtx<string[]>;

/**
 * One question's values read (blank ones dropped): `other: …` is free text as given after the marker,
 * a label (or its `compareKey` twin) is that label, a near miss of a label is refused with "did you
 * mean", anything else is free text. `undefined` when a value was refused (issues added at `[index]`).
 */
function readValues(question: PromptQuestion, values: readonly string[], ctx: Ctx): string[] | undefined {
  const labels: string[] = [];
  const free: string[] = [];
  let refused = false;
  const refuse = (index: number, value: string, message: string) => {
    ctx.addIssue({ code: "custom", input: value, path: [index], message });
    refused = true;
  };
  values.forEach((value, index) => {
    if (value.trim() === "") return;
    const forced = afterOtherPrefix(value);
    if (forced !== undefined) {
      if (forced === "") refuse(index, value, 'Write your own answer after "other:".');
      else free.push(forced);
      return;
    }
    const key = compareKey(value);
    const exact = question.options.find((option) => compareKey(option.label) === key);
    if (exact) {
      labels.push(exact.label);
      return;
    }
    const near = nearLabel(question, value);
    if (near === undefined) free.push(value.trim());
    else {
      const typed = value.trim();
      refuse(
        index,
        value,
        `"${typed}" is not an option of ${question.header}: did you mean "${near}"? To give it as your own answer, send "other: ${typed}".`,
      );
    }
  });
  if (refused) return undefined;
  return canonicalValues(question, [...labels, ...free]).filter((v, i, all) => all.indexOf(v) === i);
}

/**
 * One question's answer: an array of strings (or one string), read by {@link readValues}, then at least
 * one value, and one only for a single-select question.
 */
function answerSchema(question: PromptQuestion) {
  const values = z.array(
    z.string({ error: (issue) => `Give each value as a string, not ${describeValue(issue.input)}.` }),
    {
      error: (issue) =>
        issue.input === undefined
          ? `Answer "${question.id}" (${question.header}).`
          : `Give the answer as an array of strings, not ${describeValue(issue.input)}.`,
    },
  );
  return z
    .preprocess((given) => (typeof given === "string" ? [given] : given), values)
    .transform((values, ctx) => {
      const read = readValues(question, values, ctx);
      if (read === undefined) return z.NEVER;
      if (read.length === 0)
        ctx.addIssue({ code: "custom", input: values, message: "Give at least one non-blank value." });
      else if (!question.multiSelect && read.length > 1) {
        ctx.addIssue({
          code: "custom",
          input: values,
          message: "This question takes one answer, not several.",
        });
      }
      return read;
    });
}

/**
 * The shape of operator answers for one prompt: `{ [questionId]: string | string[] }`, every question
 * answered, no other key; its output is the canonical {@link Answers}.
 */
function answersSchema(prompt: Prompt) {
  const ids = prompt.questions.map((question) => question.id);
  const first = prompt.questions[0];
  const example = JSON.stringify({ [first?.id ?? "deploy_target"]: [first?.options[0]?.label ?? "Staging"] });
  return z.strictObject(Object.fromEntries(prompt.questions.map((q) => [q.id, answerSchema(q)])), {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `The questions are: ${ids.join(", ")}.`
        : `answers must be an object like ${example}, not ${describeValue(issue.input)}.`,
  });
}

/**
 * Checks operator-given answers: every question answered with 1+ non-blank strings (one value for a
 * single-select question), no unknown ids. A value that is a label (ignoring case, quotes, spacing and
 * `(Recommended)`) is that option; one that is close to a label (punctuation, a small typo) is refused with
 * "did you mean …"; a value starting with `other:` is free text as given after the prefix; anything else
 * is free text. Every problem is listed, each with its path (`answers.deploy_target[0]`).
 *
 * @example
 * const checked = checkAnswers(prompt, { deploy_target: ["production"] });
 * // { ok: true, answers: { deploy_target: ["Production"] } }
 */
export function checkAnswers(prompt: Prompt, raw: unknown): AnswersCheck {
  const parsed = answersSchema(prompt).safeParse(raw);
  if (parsed.success) return { ok: true, answers: parsed.data };
  const issues = toInputIssues(parsed.error.issues, {
    prefix: "answers",
    unknownKey: (key) => `No question has the id "${key}".`,
  });
  return { ok: false, issues };
}
