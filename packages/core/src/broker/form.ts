/**
 * Native forms (several questions, or multi-select): controls stage choices in the record's shared
 * draft — the same draft the text stepper and the web panel fill — and Send turns a complete draft into
 * the answer. Pure decisions on the stored record; the broker runs them inside its compare-and-set.
 */

import type { Actor, Answers, QuestionRecord } from "../model/types.ts";
import type { Action } from "../prompt/codec.ts";
import { messagesFor } from "../prompt/i18n.ts";
import type { PromptQuestion } from "../schema/schema.ts";
import type { Refusal } from "./policy.ts";
import { applyAnswers } from "./transitions.ts";

/** The labels of `question` first in option order, then free text (at most one), without duplicates. */
function ordered(question: PromptQuestion, values: Iterable<string>): string[] {
  const set = new Set(values);
  const labels = question.options.map((o) => o.label).filter((label) => set.has(label));
  const free = [...set].filter((value) => !question.options.some((o) => o.label === value));
  return [...labels, ...free.slice(-1)];
}

/** The draft with `question`'s values replaced (removed when empty). */
export function withValues(draft: Answers | undefined, question: PromptQuestion, values: string[]): Answers {
  const next: Answers = { ...draft };
  if (values.length === 0) delete next[question.id];
  else next[question.id] = values;
  return next;
}

/** A form control as the broker applies it: which question, what it does, and the event's extras. */
export interface FormStep {
  questionIndex: number;
  action: Extract<Action, { kind: "pick" | "choose" | "submit" | "other" }>;
  /** `choose`: the option indices now selected. */
  values?: number[];
  /** `other`: the free text typed. */
  text?: string;
  actor: Actor;
  locale: string;
}

/**
 * Applies one form control to the record as stored now: a new draft, the answered record (Send with
 * every question answered), or a refusal saying what is wrong (an unknown option, Send with gaps).
 */
export function applyFormStep(
  current: QuestionRecord,
  step: FormStep,
  now: number,
): QuestionRecord | Refusal {
  const m = messagesFor(step.locale);
  const question = current.prompt.questions[step.questionIndex];
  if (!question) return { reason: "invalid", message: m.refusedUnknown };
  const have = current.draft?.[question.id] ?? [];
  const { action } = step;
  if (action.kind === "submit") {
    const draft = current.draft ?? {};
    const missing = current.prompt.questions.filter((q) => draft[q.id] === undefined).map((q) => q.header);
    if (missing.length > 0) return { reason: "invalid", message: m.stillNeeded(missing.join(", ")) };
    return applyAnswers(current, draft, step.actor, now);
  }
  let values: string[];
  if (action.kind === "pick") {
    const label = question.options[action.index]?.label;
    if (label === undefined) return { reason: "invalid", message: m.refusedUnknown };
    if (!question.multiSelect) values = have[0] === label ? [] : [label];
    else
      values = have.includes(label) ? have.filter((v) => v !== label) : ordered(question, [...have, label]);
  } else if (action.kind === "choose") {
    const picked = [...new Set(step.values ?? [])];
    const labels = picked.map((index) => question.options[index]?.label);
    if (labels.some((label) => label === undefined) || (!question.multiSelect && labels.length > 1))
      return { reason: "invalid", message: m.refusedUnknown };
    // A select menu lists options only: free text typed earlier stays with a multi-select question.
    const free = question.multiSelect ? have.filter((v) => !question.options.some((o) => o.label === v)) : [];
    values = ordered(question, [...(labels as string[]), ...free]);
  } else {
    const text = (step.text ?? "").trim();
    if (text === "") return { reason: "invalid", message: m.invalidEmpty };
    const labels = question.options.map((o) => o.label);
    values = question.multiSelect
      ? ordered(question, [...have.filter((v) => labels.includes(v)), text])
      : [text];
  }
  current.draft = withValues(current.draft, question, values);
  if (Object.keys(current.draft).length === 0) delete current.draft;
  delete current.awaitingText;
  return current;
}

/** What a staged control says to the person: `Selected: EU, Asia`, or that nothing is selected. */
export function stagedText(record: QuestionRecord, questionIndex: number, locale: string): string {
  const m = messagesFor(locale);
  const question = record.prompt.questions[questionIndex];
  const values = question ? (record.draft?.[question.id] ?? []) : [];
  return values.length === 0 ? m.nothingSelected : m.selected(values.join(", "));
}
