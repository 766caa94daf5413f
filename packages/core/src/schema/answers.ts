import { z } from "zod";
import type { InputIssue } from "../model/errors.ts";
import type { Answers } from "../model/types.ts";
import { compareKey } from "../prompt/text.ts";
import { afterOtherPrefix } from "../reply/interpret-question.ts";
import { nearLabel } from "../reply/near-label.ts";
import { toInputIssues } from "./input-issues.ts";
import { describeValue } from "./rules.ts";
import type { Prompt, PromptQuestion } from "./schema.ts";

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

type Issue = z.core.$ZodIssue;

/** A value marked `other:` with nothing after it: refused by the shape, skipped by the reading. */
function emptyOther(value: string): boolean {
  return afterOtherPrefix(value) === "";
}

/** One value as given: a string, and not a bare `other:` marker. */
const givenValue = z
  .string({ error: (issue) => `Give each value as a string, not ${describeValue(issue.input)}.` })
  .refine((value) => !emptyOther(value), { error: 'Write your own answer after "other:".' });

/**
 * The shape of operator answers, whatever the prompt: `{ [questionId]: string | string[] }` (one string
 * is a one-value answer), each value a string and no bare `other:` marker; issues at `[id]` or
 * `[id, index]`. `checkAnswers` adds what depends on the prompt.
 *
 * @example
 * operatorAnswersSchema.parse({ deploy_target: "Production" }); // { deploy_target: ["Production"] }
 */
export const operatorAnswersSchema = z.record(
  z.string(),
  z.preprocess(
    (given) => (typeof given === "string" ? [given] : given),
    z.array(givenValue, {
      error: (issue) => `Give the answer as an array of strings, not ${describeValue(issue.input)}.`,
    }),
  ),
  {
    error: (issue) =>
      `answers must be an object like { "deploy_target": ["Staging"] } (question id → values), not ${describeValue(issue.input)}.`,
  },
);

function issue(path: PropertyKey[], message: string): Issue {
  return { code: "custom", path, message };
}

/**
 * One question's values read (blank ones dropped): `other: …` is free text as given after the marker,
 * a label (or its `compareKey` twin) is that label, a near miss of a label is refused with "did you
 * mean", anything else is free text; then at least one value, and one only for a single-select
 * question. Issues at `[id, index]` or `[id]`; a bare `other:` is left to the shape.
 */
function readValues(question: PromptQuestion, values: readonly string[], issues: Issue[]): string[] {
  const labels: string[] = [];
  const free: string[] = [];
  const before = issues.length;
  let refused = false;
  values.forEach((value, index) => {
    if (value.trim() === "") return;
    const forced = afterOtherPrefix(value);
    if (forced !== undefined) {
      if (forced === "") refused = true;
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
      const message = `"${typed}" is not an option of ${question.header}: did you mean "${near}"? To give it as your own answer, send "other: ${typed}".`;
      issues.push(issue([question.id, index], message));
    }
  });
  const read = canonicalValues(question, [...labels, ...free]).filter((v, i, all) => all.indexOf(v) === i);
  if (refused || issues.length > before) return read;
  if (read.length === 0) issues.push(issue([question.id], "Give at least one non-blank value."));
  else if (!question.multiSelect && read.length > 1) {
    issues.push(issue([question.id], "This question takes one answer, not several."));
  }
  return read;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const givenRight = (value: unknown): boolean => typeof value === "string" && !emptyOther(value);

/**
 * True when `raw` has the shape of {@link operatorAnswersSchema} — an object whose every value is a
 * string or an array of strings, none a bare `other:` — checked without zod: the common, well-formed
 * answer skips the schema, which is then only run to word the issues of one that is not.
 */
export function hasAnswersShape(raw: unknown): boolean {
  if (!isRecord(raw)) return false;
  for (const key in raw) {
    if (!Object.hasOwn(raw, key)) continue;
    const given = raw[key];
    if (Array.isArray(given) ? !given.every(givenRight) : !givenRight(given)) return false;
  }
  return true;
}

/**
 * Checks operator-given answers: every question answered with 1+ non-blank strings (one value for a
 * single-select question), no unknown ids. A value that is a label (ignoring case, quotes, spacing and
 * `(Recommended)`) is that option; one that is close to a label (punctuation, a small typo) is refused with
 * "did you mean …"; a value starting with `other:` is free text as given after the prefix; anything else
 * is free text. The shape is {@link operatorAnswersSchema}; every problem is listed, each with its path
 * (`answers.deploy_target[0]`).
 *
 * @example
 * const checked = checkAnswers(prompt, { deploy_target: ["production"] });
 * // { ok: true, answers: { deploy_target: ["Production"] } }
 */
export function checkAnswers(prompt: Prompt, raw: unknown): AnswersCheck {
  const shape = hasAnswersShape(raw) ? undefined : operatorAnswersSchema.safeParse(raw);
  const shapeIssues = shape === undefined || shape.success ? [] : shape.error.issues;
  const issues: Issue[] = [];
  const answers: Answers = {};
  if (isRecord(raw)) {
    const ids = prompt.questions.map((question) => question.id);
    const unknown = Object.keys(raw).filter((key) => !ids.includes(key));
    if (unknown.length > 0) {
      issues.push({
        code: "unrecognized_keys",
        keys: unknown,
        path: [],
        message: `The questions are: ${ids.join(", ")}.`,
      });
    }
    // Question by question, in the prompt's order: its shape issues, then what the prompt says.
    for (const question of prompt.questions) {
      const given = raw[question.id];
      if (given === undefined) {
        issues.push(issue([question.id], `Answer "${question.id}" (${question.header}).`));
        continue;
      }
      issues.push(...shapeIssues.filter((shapeIssue) => shapeIssue.path[0] === question.id));
      const values = typeof given === "string" ? [given] : given;
      if (Array.isArray(values) && values.every((value) => typeof value === "string")) {
        answers[question.id] = readValues(question, values, issues);
      }
    }
  } else {
    issues.push(...shapeIssues);
  }
  if (issues.length === 0) return { ok: true, answers };
  const unknownKey = (key: string) => `No question has the id "${key}".`;
  return { ok: false, issues: toInputIssues(issues, { prefix: "answers", unknownKey }) };
}
