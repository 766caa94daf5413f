import type { InputIssue } from "./errors.ts";
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

/**
 * Checks operator-given answers: every question answered with 1+ non-blank strings (one value for a
 * single-select question; free text is allowed), no unknown ids.
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
    const values = canonicalValues(
      question,
      (list as string[]).filter((v) => v.trim() !== ""),
    );
    if (values.length === 0) {
      issues.push({ path, message: "Give at least one non-blank value." });
    } else if (!question.multiSelect && values.length > 1) {
      issues.push({ path, message: "This question takes one answer, not several." });
    } else {
      answers[question.id] = values;
    }
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, answers };
}
