import type { InputIssue } from "./errors.ts";
import { afterOtherPrefix } from "./interpret-question.ts";
import type { Prompt, PromptQuestion } from "./schema.ts";
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

/** Letters and digits only, lower case: "Prod-uction." and "production" read the same. */
function skeleton(text: string): string {
  return text
    .normalize("NFKC")
    .toLocaleLowerCase("en-US")
    .replace(/\(recommended\)\s*$/u, "")
    .replace(/[^\p{L}\p{N}]/gu, "");
}

/** Edit distance with adjacent swaps (optimal string alignment), stopping early past `max`. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) rows.push([i, ...Array<number>(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) (rows[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i] as number[];
    const prev = rows[i - 1] as number[];
    let best = Number.POSITIVE_INFINITY;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(
        (prev[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (prev[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      }
      row[j] = value;
      best = Math.min(best, value);
    }
    if (best > max) return max + 1;
  }
  return (rows[a.length] as number[])[b.length] as number;
}

/**
 * The label `value` was probably meant to be (case, spacing, punctuation or a small typo apart), or
 * `undefined` when it reads as an answer of its own. Short labels (up to 3 letters) only match exactly.
 */
export function nearLabel(question: PromptQuestion, value: string): string | undefined {
  const typed = skeleton(value);
  if (typed === "") return undefined;
  let best: { label: string; distance: number } | undefined;
  for (const option of question.options) {
    const label = skeleton(option.label);
    const allowed = label.length <= 3 ? 0 : Math.min(2, Math.floor(label.length / 4));
    const d = distance(typed, label, allowed);
    if (d <= allowed && (!best || d < best.distance)) best = { label: option.label, distance: d };
  }
  return best?.label;
}

/**
 * Checks operator-given answers: every question answered with 1+ non-blank strings (one value for a
 * single-select question), no unknown ids. A value that is a label (ignoring case, quotes, spacing and
 * `(Recommended)`) is that option; one that is close to a label (punctuation, a small typo) is refused with
 * "did you mean …"; a value starting with `other:` is free text as given after the prefix; anything else
 * is free text. Every problem is listed, each with its path.
 */
export function checkAnswers(prompt: Prompt, raw: unknown): AnswersCheck {
  const issues: InputIssue[] = [];
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return {
      ok: false,
      issues: [
        { path: "answers", message: 'answers must be an object like { "deploy_target": ["Staging"] }.' },
      ],
    };
  }
  const given = raw as Record<string, unknown>;
  const known = new Set(prompt.questions.map((q) => q.id));
  for (const key of Object.keys(given)) {
    if (!known.has(key)) {
      issues.push({
        path: `answers.${key}`,
        message: `No question has the id "${key}" (ids: ${[...known].join(", ")}).`,
      });
    }
  }
  const answers: Answers = {};
  for (const question of prompt.questions) {
    const path = `answers.${question.id}`;
    const value = given[question.id];
    if (value === undefined) {
      issues.push({ path, message: `Answer "${question.id}" (${question.header}).` });
      continue;
    }
    const list = typeof value === "string" ? [value] : value;
    if (!Array.isArray(list) || list.some((v) => typeof v !== "string")) {
      issues.push({ path, message: "Give the answer as an array of strings." });
      continue;
    }
    const read = readValues(question, list as string[], path, issues);
    if (read === undefined) continue;
    if (read.length === 0) {
      issues.push({ path, message: "Give at least one non-blank value." });
    } else if (!question.multiSelect && read.length > 1) {
      issues.push({ path, message: "This question takes one answer, not several." });
    } else {
      answers[question.id] = read;
    }
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, answers };
}

/** One question's values made canonical; `undefined` when one of them was refused (issue added). */
function readValues(
  question: PromptQuestion,
  values: readonly string[],
  path: string,
  issues: InputIssue[],
): string[] | undefined {
  const labels: string[] = [];
  const free: string[] = [];
  let refused = false;
  values.forEach((value, index) => {
    if (value.trim() === "") return;
    const forced = afterOtherPrefix(value);
    if (forced !== undefined) {
      if (forced === "") {
        issues.push({ path: `${path}[${index}]`, message: 'Write your own answer after "other:".' });
        refused = true;
      } else free.push(forced);
      return;
    }
    const key = compareKey(value);
    const exact = question.options.find((option) => compareKey(option.label) === key);
    if (exact) {
      labels.push(exact.label);
      return;
    }
    const near = nearLabel(question, value);
    if (near !== undefined) {
      issues.push({
        path: `${path}[${index}]`,
        message: `"${value.trim()}" is not an option of ${question.header}: did you mean "${near}"? To give it as your own answer, send "other: ${value.trim()}".`,
      });
      refused = true;
      return;
    }
    free.push(value.trim());
  });
  if (refused) return undefined;
  return canonicalValues(question, [...labels, ...free]).filter((v, i, all) => all.indexOf(v) === i);
}
