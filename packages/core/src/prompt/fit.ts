/**
 * The one shortening ladder (SPEC §6: shorten what is long, never what was asked or who answers). A
 * channel says whether a view fits its platform (`fits`: render it and measure); `fitView` tries gentler
 * cuts first and stops at the first view that fits. It shortens the longest texts first, and never drops
 * a question, its header, an option's label, the audience line or a control. Pure.
 */
import { clipText } from "./text.ts";
import type { PromptView, QuestionView } from "./view.ts";

/**
 * `texts` cut so that their lengths add up to at most `budget` (UTF-16 units), the longest first: every
 * text longer than a common cap is cut to it ("…" included), shorter ones stay whole. The cap is the
 * largest that fits; `minEach` is the least each text keeps (a cut text still says what it starts with).
 *
 * @example clipLongestFirst(["Production", "word ".repeat(600)], 40) // ["Production", "word word word…"]
 */
export function clipLongestFirst(texts: readonly string[], budget: number, minEach = 1): string[] {
  const total = texts.reduce((sum, text) => sum + text.length, 0);
  if (total <= budget) return [...texts];
  const lengths = texts.map((text) => text.length).sort((a, b) => a - b);
  // The largest cap c with sum(min(length, c)) <= budget.
  let cap = minEach;
  let before = 0; // sum of the lengths shorter than the current cap
  for (let i = 0; i < lengths.length; i++) {
    const rest = lengths.length - i;
    const even = Math.floor((budget - before) / rest);
    const length = lengths[i] ?? 0;
    if (even < length) {
      cap = Math.max(minEach, even);
      break;
    }
    before += length;
  }
  return texts.map((text) => (text.length <= cap ? text : clipText(text, cap)));
}

/** Cuts applied to a view: the most each kind of text keeps (`undefined`: whole; 0: descriptions dropped). */
interface Cuts {
  answer?: number;
  description?: number;
  question?: number;
}

/** The ladder, gentlest first: long answers, then descriptions, then question texts, then answers again. */
const LADDER: readonly Cuts[] = [
  {},
  { answer: 400 },
  { answer: 200 },
  { answer: 200, description: 200 },
  { answer: 200, description: 80 },
  { answer: 200, description: 0 },
  { answer: 200, description: 0, question: 300 },
  { answer: 200, description: 0, question: 100 },
  { answer: 80, description: 0, question: 100 },
  { answer: 40, description: 0, question: 60 },
  { answer: 12, description: 0, question: 40 },
];

const cut = (text: string, max: number | undefined) => (max === undefined ? text : clipText(text, max));

function cutQuestion(question: QuestionView, cuts: Cuts): QuestionView {
  return {
    ...question,
    question: cut(question.question, cuts.question),
    options: question.options.map((option) => {
      const { description, ...rest } = option;
      if (description === undefined || cuts.description === 0) return rest;
      return { ...rest, description: cut(description, cuts.description) };
    }),
    values: question.values.map((value) => cut(value, cuts.answer)),
    ...(question.own === undefined ? {} : { own: cut(question.own, cuts.answer) }),
  };
}

/** The view with `cuts` applied (answers in status lines and own answers, descriptions, question texts). */
export function shortenView(view: PromptView, cuts: Cuts): PromptView {
  return {
    ...view,
    questions: view.questions.map((question) => cutQuestion(question, cuts)),
    status: view.status.map((line) =>
      line.values === undefined ? line : { ...line, values: cut(line.values, cuts.answer) },
    ),
  };
}

/**
 * The first view of the ladder that `fits` (see the module comment); the last, most shortened one when
 * none does (the channel then cuts its rendering as a last resort, which the schema's limits make
 * unreachable on every platform we ship).
 *
 * @example
 * const view = fitView(buildPromptView(record, options), (v) => toHtml(v).plain.length <= 4096);
 */
export function fitView(view: PromptView, fits: (view: PromptView) => boolean): PromptView {
  let last = view;
  for (const cuts of LADDER) {
    last = shortenView(view, cuts);
    if (fits(last)) return last;
  }
  return last;
}
