/**
 * Prompts and answers for the lifecycle model test: random prompts of 1-3 questions, and "picks" (what
 * a person means to answer for one question) resolved against a real question into the reply text a
 * person would type, the values an operator would send, and the canonical values the agent should get.
 */
import fc from "fast-check";
import { stripRecommended } from "../src/prompt/text.ts";
import type { Prompt, PromptQuestion } from "../src/schema/schema.ts";

/** Plain labels: no commas, colons or digits, so every reply form below reads one way only. */
const LABELS = [
  "Staging (Recommended)",
  "Production",
  "Canary",
  "Europe",
  "United States",
  "Asia",
  "Nightly",
  "Weekly",
  "Postgres",
  "SQLite",
];

/**
 * Free texts people submit (modal, `other:`, operator): none reads as a label, a number or a skip word,
 * none has a separator. Padded ones check that values are trimmed.
 */
export const FREE_TEXTS = [
  "ask the team first",
  "Tokyo office",
  "after the release",
  "whatever is cheaper",
  "  none of these  ",
  "Frankfurt only",
];

const QUESTIONS = [
  { id: "deploy_target", header: "Deploy", question: "Where should I deploy?" },
  { id: "regions", header: "Regions", question: "Which regions?" },
  { id: "database", header: "Database", question: "Which database?" },
];

/** Raw `ask_user` input (the broker normalises it). */
export const promptInputArb: fc.Arbitrary<unknown> = fc
  .tuple(
    fc.array(
      fc.record({
        labels: fc.shuffledSubarray(LABELS, { minLength: 2, maxLength: 4 }),
        multiSelect: fc.boolean(),
      }),
      { minLength: 1, maxLength: 3 },
    ),
    fc.constantFrom(30, 60, 300, 900),
  )
  .map(([questions, timeoutSeconds]) => ({
    timeoutSeconds,
    questions: questions.map((q, index) => ({
      ...QUESTIONS[index],
      options: q.labels.map((label) => ({ label, description: `About ${label}` })),
      multiSelect: q.multiSelect,
    })),
  }));

/** What a person means to answer for one question, before it is matched to a real question. */
export interface Pick {
  /** Option indices (taken modulo the number of options). */
  options: number[];
  /** Free text, used instead of (single-select) or after (multi-select) the options. */
  free: string | undefined;
  /** How options are typed. */
  style: "number" | "label" | "bare-label";
  /** Free text typed with `other:` or plainly. */
  forced: boolean;
}

export const pickArb: fc.Arbitrary<Pick> = fc.record({
  options: fc.array(fc.nat({ max: 11 }), { minLength: 1, maxLength: 2 }),
  free: fc.option(fc.constantFrom(...FREE_TEXTS), { nil: undefined, freq: 3 }),
  style: fc.constantFrom("number", "label", "bare-label"),
  forced: fc.boolean(),
});

/** A pick matched to a question. */
export interface ResolvedPick {
  /** The canonical values the agent must get: labels in option order, then the free text, trimmed. */
  values: string[];
  /** The values as an operator surface sends them. */
  raw: string[];
  /** The answer as a person types it after `N: ` (or alone, for a one-question prompt). */
  text: string;
  /** Free text the person gave, trimmed (to check that every value came from someone). */
  freeText: string | undefined;
}

/** Matches a pick to a question (single-select: the free text, or else the first option). */
export function resolvePick(question: PromptQuestion, pick: Pick): ResolvedPick {
  const count = question.options.length;
  const chosen = question.multiSelect
    ? [...new Set(pick.options.map((index) => index % count))]
    : pick.free === undefined
      ? [(pick.options[0] ?? 0) % count]
      : [];
  const free = question.multiSelect || chosen.length === 0 ? pick.free : undefined;
  const labels = question.options.map((option) => option.label).filter((_, index) => chosen.includes(index));
  const typed = chosen.map((index) => {
    const label = question.options[index]?.label ?? "";
    if (pick.style === "number") return String(index + 1);
    return pick.style === "label" ? label : stripRecommended(label);
  });
  // A plain free text after options would be read as one more part anyway; `other:` makes it explicit.
  if (free !== undefined) typed.push(pick.forced || typed.length > 0 ? `other: ${free}` : free);
  const freeText = free?.trim();
  return {
    values: freeText === undefined ? labels : [...labels, freeText],
    raw: free === undefined ? labels : [...labels, free],
    text: typed.join(", "),
    freeText,
  };
}

/** Which questions a text reply answers (at least one) and how its lines are keyed. */
export interface ReplyShape {
  picks: [Pick, Pick, Pick];
  /** Bit i set: question i is answered (an empty mask answers the first question). */
  mask: number;
  keyBy: "number" | "id";
}

export const replyShapeArb: fc.Arbitrary<ReplyShape> = fc.record({
  picks: fc.tuple(pickArb, pickArb, pickArb),
  mask: fc.integer({ min: 0, max: 7 }),
  keyBy: fc.constantFrom("number", "id"),
});

/** A reply typed as the prompt suggests: the answer alone for one question, else one keyed line each. */
export function renderReply(
  prompt: Prompt,
  shape: ReplyShape,
): { text: string; given: Map<string, ResolvedPick>; complete: boolean } {
  const given = new Map<string, ResolvedPick>();
  const lines: string[] = [];
  const questions = prompt.questions;
  const mask = shape.mask % (1 << questions.length) || 1;
  questions.forEach((question, index) => {
    if (questions.length > 1 && (mask & (1 << index)) === 0) return;
    const resolved = resolvePick(question, shape.picks[index] ?? shape.picks[0]);
    given.set(question.id, resolved);
    const key = shape.keyBy === "number" ? String(index + 1) : question.id;
    lines.push(questions.length === 1 ? resolved.text : `${key}: ${resolved.text}`);
  });
  return { text: lines.join("\n"), given, complete: given.size === questions.length };
}
