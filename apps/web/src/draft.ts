import type { Answers, PromptQuestion } from "@ask-user/core";

/** What the user chose for one question so far. */
export interface Choice {
  /** Indexes of the chosen options, in option order. */
  selected: number[];
  /** The Other… field is open (and, for a single-select question, is the choice). */
  otherOpen: boolean;
  otherText: string;
}

/**
 * The panel's local state for one pending prompt: the current step and a choice per question. A step
 * equal to the number of questions is the review of every answer (prompts of two or more questions).
 */
export interface Draft {
  step: number;
  choices: Choice[];
  /** The step was opened from the review's Change: confirming it returns there. */
  fromReview?: boolean;
}

const empty: Choice = { selected: [], otherOpen: false, otherText: "" };

/** A question's choice as the shared draft (`record.draft`) stores it: its labels and own answer. */
export function choiceOf(question: PromptQuestion, values: readonly string[] | undefined): Choice {
  if (!values || values.length === 0) return { ...empty };
  const selected: number[] = [];
  const free: string[] = [];
  for (const value of values) {
    const index = question.options.findIndex((option) => option.label === value);
    if (index >= 0) selected.push(index);
    else free.push(value);
  }
  return { selected, otherOpen: free.length > 0, otherText: free.join(", ") };
}

/** The first question without a value (0 when every one has one: the review is never opened by itself). */
export function firstOpenStep(choices: readonly Choice[]): number {
  return Math.max(
    0,
    choices.findIndex((choice) => !hasValue(choice)),
  );
}

/** A fresh draft, pre-filled from the shared draft (`record.draft`), if any. */
export function newDraft(questions: PromptQuestion[], stored: Answers | undefined): Draft {
  const choices = questions.map((question) => choiceOf(question, stored?.[question.id]));
  return { step: firstOpenStep(choices), choices };
}

/** True when two choices look the same on screen (the same options, the same Other… field and text). */
export function sameChoice(a: Choice, b: Choice): boolean {
  return (
    a.otherOpen === b.otherOpen &&
    a.otherText === b.otherText &&
    a.selected.length === b.selected.length &&
    a.selected.every((index) => b.selected.includes(index))
  );
}

/**
 * The values to stage for a choice (`PUT …/draft`): the chosen labels, then the typed text marked
 * `other:` (the person's own words, even when it looks like a misspelt label); none clears the question.
 */
export function stagedValues(question: PromptQuestion, choice: Choice): string[] {
  const values = valuesOf(question, choice);
  const typed = choice.otherOpen && choice.otherText.trim() !== "";
  return typed ? [...values.slice(0, -1), `other: ${values.at(-1) ?? ""}`] : values;
}

/** True when the choice gives the question at least one value. */
export function hasValue(choice: Choice | undefined): boolean {
  if (!choice) return false;
  return choice.selected.length > 0 || (choice.otherOpen && choice.otherText.trim() !== "");
}

/** The answer values of a choice: the chosen labels in option order, then the free text. */
export function valuesOf(question: PromptQuestion, choice: Choice): string[] {
  const values = [...choice.selected]
    .sort((a, b) => a - b)
    .map((index) => question.options[index]?.label)
    .filter((label): label is string => label !== undefined);
  const text = choice.otherText.trim();
  if (choice.otherOpen && text !== "") values.push(text);
  return values;
}

/**
 * The answers to send, or `undefined` while a question has no value. What was typed in the Other… field
 * is marked `other:`, so the gateway takes it as the person's own words even when it looks like a
 * misspelt label.
 */
export function answersOf(questions: PromptQuestion[], draft: Draft): Answers | undefined {
  const answers: Answers = {};
  for (const [index, question] of questions.entries()) {
    const choice = draft.choices[index];
    if (!choice || !hasValue(choice)) return undefined;
    answers[question.id] = stagedValues(question, choice);
  }
  return answers;
}

/** Picks option `index` of a single-select question (replacing any other choice). */
export function pick(choice: Choice, index: number): Choice {
  return { ...choice, selected: [index], otherOpen: false };
}

/** Toggles option `index` of a multi-select question. */
export function toggle(choice: Choice, index: number): Choice {
  const selected = choice.selected.includes(index)
    ? choice.selected.filter((i) => i !== index)
    : [...choice.selected, index].sort((a, b) => a - b);
  return { ...choice, selected };
}

/** Opens (or, for multi-select, toggles) the Other… field; for single-select it replaces the options. */
export function toggleOther(choice: Choice, multiSelect: boolean): Choice {
  if (multiSelect) return { ...choice, otherOpen: !choice.otherOpen };
  return { ...choice, selected: [], otherOpen: true };
}

/** Replaces the choice of question `index`. */
export function withChoice(draft: Draft, index: number, choice: Choice): Draft {
  const choices = draft.choices.slice();
  choices[index] = choice;
  return { ...draft, choices };
}

/**
 * After a question got its value: the next question still without one (looking forward first, then
 * from the start), or `undefined` when every question has a value and the answers can go.
 */
export function nextOpenStep(draft: Draft, from: number): number | undefined {
  const count = draft.choices.length;
  for (let offset = 1; offset <= count; offset++) {
    const index = (from + offset) % count;
    if (!hasValue(draft.choices[index])) return index;
  }
  return undefined;
}

/**
 * The step after question `index` got its value (in a prompt of `total` questions, two or more): the
 * next question; after the last one (or one opened from the review) the review once every question has
 * a value, else the first question still without one.
 */
export function stepAfter(draft: Draft, index: number, total: number): number {
  const complete = nextOpenStep(draft, index) === undefined;
  if (draft.fromReview && complete) return total;
  if (index < total - 1) return index + 1;
  return complete ? total : (nextOpenStep(draft, index) ?? index);
}
