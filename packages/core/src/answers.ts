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

/** Why one question's answer was refused: at the answer (`index` undefined) or at one of its values. */
interface ValueIssue {
  index?: number;
  message: string;
}

/**
 * One question's values read (blank ones dropped): `other: …` is free text as given after the marker,
 * a label (or its `compareKey` twin) is that label, a near miss of a label is refused with "did you
 * mean", anything else is free text; then at least one value, and one only for a single-select question.
 */
function readValues(
  question: PromptQuestion,
  values: readonly string[],
): { ok: true; values: string[] } | { ok: false; issues: ValueIssue[] } {
  const labels: string[] = [];
  const free: string[] = [];
  const issues: ValueIssue[] = [];
  values.forEach((value, index) => {
    if (value.trim() === "") return;
    const forced = afterOtherPrefix(value);
    if (forced !== undefined) {
      if (forced === "") issues.push({ index, message: 'Write your own answer after "other:".' });
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
    const typed = value.trim();
    if (near === undefined) free.push(typed);
    else {
      issues.push({
        index,
        message: `"${typed}" is not an option of ${question.header}: did you mean "${near}"? To give it as your own answer, send "other: ${typed}".`,
      });
    }
  });
  if (issues.length > 0) return { ok: false, issues };
  const read = canonicalValues(question, [...labels, ...free]).filter((v, i, all) => all.indexOf(v) === i);
  if (read.length === 0) return { ok: false, issues: [{ message: "Give at least one non-blank value." }] };
  if (!question.multiSelect && read.length > 1) {
    return { ok: false, issues: [{ message: "This question takes one answer, not several." }] };
  }
  return { ok: true, values: read };
}

/** One answer as given: an array of strings, or one string (a one-value array). Built once. */
const givenValues = z
  .preprocess(
    (given) => (typeof given === "string" ? [given] : given),
    z.array(
      z.string({ error: (issue) => `Give each value as a string, not ${describeValue(issue.input)}.` }),
      {
        error: (issue) => `Give the answer as an array of strings, not ${describeValue(issue.input)}.`,
      },
    ),
  )
  .optional();

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

/**
 * The operator answers to one prompt: `{ [questionId]: string | string[] }` with no other key, every
 * question answered ({@link readValues}, issues at `[id]` or `[id, index]`); the output is the canonical
 * {@link Answers}. The shape is checked even where a value is refused, so one parse lists every problem.
 */
function answersSchema(prompt: Prompt) {
  const ids = prompt.questions.map((question) => question.id);
  const first = prompt.questions[0];
  const example = JSON.stringify({ [first?.id ?? "deploy_target"]: [first?.options[0]?.label ?? "Staging"] });
  const answers = z.strictObject(Object.fromEntries(ids.map((id) => [id, givenValues])), {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `The questions are: ${ids.join(", ")}.`
        : `answers must be an object like ${example}, not ${describeValue(issue.input)}.`,
  });
  const everyQuestion = z.superRefine<Record<string, unknown>>(
    (given, ctx) => {
      for (const question of prompt.questions) {
        const values = given[question.id];
        if (values === undefined) {
          ctx.addIssue({
            code: "custom",
            input: values,
            path: [question.id],
            message: `Answer "${question.id}" (${question.header}).`,
          });
          continue;
        }
        if (!isStringArray(values)) continue; // refused by the shape already
        const read = readValues(question, values);
        if (read.ok) continue;
        for (const { index, message } of read.issues) {
          const path = index === undefined ? [question.id] : [question.id, index];
          ctx.addIssue({ code: "custom", input: values, path, message });
        }
      }
    },
    {
      when: (payload) =>
        typeof payload.value === "object" && payload.value !== null && !Array.isArray(payload.value),
    },
  );
  return answers.check(everyQuestion).transform((given): Answers => {
    const out: Answers = {};
    for (const question of prompt.questions) {
      const read = readValues(question, given[question.id] ?? []);
      if (read.ok) out[question.id] = read.values;
    }
    return out;
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
