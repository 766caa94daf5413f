import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Answers } from "../src/model/types.ts";
import { type RenderOptions, renderPromptText } from "../src/prompt/render.ts";
import { compareKey, stripRecommended } from "../src/prompt/text.ts";
import { interpretReply } from "../src/reply/interpret.ts";
import { normalizeAskUserInput } from "../src/schema/normalize.ts";
import type { Prompt, PromptQuestion } from "../src/schema/schema.ts";
import { T0 } from "./helpers.ts";
import { readRenderedPrompt, type ShownPrompt } from "./model-rendered-prompt.ts";

/**
 * Every way of replying that a rendered prompt suggests, typed exactly as shown, gives the answers the
 * person meant (SPEC §7 last sentence) — in every locale, with realistic labels (spaces, commas,
 * parentheses, digits, a `(Recommended)` first option).
 */

const WORDS = [
  "Staging",
  "Production",
  "Canary",
  "rollout",
  "Europe",
  "Asia",
  "Tokyo",
  "Node",
  "Postgres",
  "nightly",
  "Lint",
  "format",
  "docs",
  "Blue/green",
  "read-only",
  "Dark",
  "mode",
  "keep",
  "current",
  "plan",
  "beta",
  "replicas",
  "Python",
];
const OWN_WORDS = [
  "ask",
  "the",
  "team",
  "first",
  "whatever",
  "is",
  "cheaper",
  "maybe",
  "later",
  "Berlin",
  "office",
  "none",
  "of",
  "these",
  "after",
  "5",
  "pm",
];
const QUESTIONS = [
  { id: "deploy_target", header: "Deploy", question: "Where should I deploy?" },
  { id: "region", header: "Region", question: "Which region?" },
  { id: "db", header: "Database", question: "Which database?" },
];

const word = fc.constantFrom(...WORDS);
const labelArb = fc.oneof(
  fc.array(word, { minLength: 1, maxLength: 3 }).map((words) => words.join(" ")),
  fc.tuple(word, word).map(([a, b]) => `${a}, ${b}`),
  fc.tuple(word, word).map(([a, b]) => `${a} (${b})`),
  fc.tuple(word, word).map(([a, b]) => `${a} / ${b}`),
  fc.tuple(word, fc.integer({ min: 1, max: 9 })).map(([a, n]) => `${a} (${n})`),
  fc.tuple(word, fc.integer({ min: 2, max: 64 })).map(([a, n]) => `${a} ${n}`),
  fc.tuple(fc.integer({ min: 2, max: 9 }), word).map(([n, a]) => `${n} ${a}`),
  fc
    .tuple(word, fc.integer({ min: 1, max: 9 }), fc.integer({ min: 0, max: 12 }))
    .map(([a, x, y]) => `${a} v${x}.${y}`),
);

/** Labels that can be told apart however they are typed: distinct, and a comma label's parts are no labels. */
function readable(labels: readonly string[]): boolean {
  const keys = labels.map(compareKey);
  if (new Set(keys).size !== keys.length) return false;
  const withComma = labels.filter((label) => label.includes(","));
  if (withComma.length > 1) return false;
  return withComma.every((label) => label.split(",").every((part) => !keys.includes(compareKey(part))));
}

const promptArb: fc.Arbitrary<Prompt> = fc
  .array(
    fc.record({
      labels: fc.uniqueArray(labelArb, { minLength: 2, maxLength: 4, selector: compareKey }).filter(readable),
      recommended: fc.boolean(),
      described: fc.boolean(),
      multiSelect: fc.boolean(),
    }),
    { minLength: 1, maxLength: 3 },
  )
  .map((questions) => ({
    questions: questions.map((q, index) => ({
      ...QUESTIONS[index],
      multiSelect: q.multiSelect,
      options: q.labels.map((label, at) => ({
        label: at === 0 && q.recommended ? `${label} (Recommended)` : label,
        ...(q.described ? { description: `What ${label} means` } : {}),
      })),
    })),
  }))
  .map((input) => normalizeAskUserInput(input));

/** What a person means for one question: some options (each typed as number, label or bare label), or own words. */
type Meant =
  | { kind: "options"; picks: Array<{ index: number; as: "number" | "label" | "bare" }> }
  | { kind: "own"; text: string; forced: boolean };

const ownText = (commas: boolean) =>
  fc
    .array(fc.constantFrom(...OWN_WORDS), { minLength: 1, maxLength: 4 })
    .chain((words) =>
      commas && words.length > 1
        ? fc.constant(`${words[0]}, ${words.slice(1).join(" ")}`)
        : fc.constant(words.join(" ")),
    )
    .filter((text) => !/^[0-9 ,]+$/u.test(text));

function meantArb(question: PromptQuestion): fc.Arbitrary<Meant> {
  const count = question.options.length;
  const labels = question.options.map((option) => compareKey(option.label));
  const pick = (index: number) =>
    fc.record({ index: fc.constant(index), as: fc.constantFrom("number", "label", "bare") });
  const picks = question.multiSelect
    ? fc
        .uniqueArray(fc.nat({ max: count - 1 }), { minLength: 1, maxLength: count })
        .chain((indices) => fc.tuple(...indices.map(pick)))
    : fc.nat({ max: count - 1 }).chain((index) => fc.tuple(pick(index)));
  const own = fc
    .boolean()
    // A multi-select reply is split on commas unless `other:` forces one free text.
    .chain((forced) => ownText(forced).map((text) => ({ kind: "own" as const, text, forced })))
    .filter((own) => !labels.includes(compareKey(own.text)));
  return fc.oneof({ weight: 3, arbitrary: picks.map((p) => ({ kind: "options" as const, picks: p })) }, own);
}

/** The answer to one question, typed as the rendered prompt shows it. */
function typeMeant(question: PromptQuestion, index: number, meant: Meant, shown: ShownPrompt): string {
  if (meant.kind === "own") return meant.forced ? `${shown.otherPrefix} ${meant.text}` : meant.text;
  return meant.picks
    .map(({ index: option, as }) => {
      const label = question.options[option]?.label ?? "";
      if (as === "number") return shown.numbers[index]?.[option] ?? "";
      return as === "label" ? label : stripRecommended(label);
    })
    .join(", ");
}

/** The canonical values the agent gets: labels in option order, or the own words. */
function valuesOf(question: PromptQuestion, meant: Meant): string[] {
  if (meant.kind === "own") return [meant.text];
  const chosen = new Set(meant.picks.map((pick) => pick.index));
  return question.options.filter((_, index) => chosen.has(index)).map((option) => option.label);
}

interface Case {
  prompt: Prompt;
  locale: "en" | "de";
  text: string;
  shown: ShownPrompt;
  meant: Meant[];
  /** Which questions the reply answers, in the order typed. */
  order: number[];
}

const caseArb = (several: boolean): fc.Arbitrary<Case> =>
  fc
    .tuple(
      promptArb.filter((prompt) => prompt.questions.length > 1 === several),
      fc.constantFrom<"en" | "de">("en", "de"),
      fc.boolean(),
    )
    .chain(([prompt, locale, replyToMessage]) => {
      // `replyToMessage` (Telegram groups) adds a line; the reply forms stay the same.
      const options: RenderOptions = { locale, expiresAt: T0 + 900_000, now: T0, replyToMessage };
      const text = renderPromptText(prompt, options);
      const shown = readRenderedPrompt(prompt, text);
      const indices = prompt.questions.map((_, index) => index);
      return fc.record({
        prompt: fc.constant(prompt),
        locale: fc.constant(locale),
        text: fc.constant(text),
        shown: fc.constant(shown),
        meant: fc.tuple(...prompt.questions.map(meantArb)),
        order: several ? fc.shuffledSubarray(indices, { minLength: 1 }) : fc.constant(indices),
      });
    });

function expected(c: Case): { kind: "answers"; answers: Answers; complete: boolean } {
  const answers: Answers = {};
  for (const index of [...c.order].sort((a, b) => a - b)) {
    const question = c.prompt.questions[index];
    const meant = c.meant[index];
    if (question && meant) answers[question.id] = valuesOf(question, meant);
  }
  return { kind: "answers", answers, complete: c.order.length === c.prompt.questions.length };
}

function keyedAnswers(c: Case): string[] {
  return c.order.map((index) => {
    const question = c.prompt.questions[index] as PromptQuestion;
    return `${c.shown.keys[index]}: ${typeMeant(question, index, c.meant[index] as Meant, c.shown)}`;
  });
}

const RUNS = { numRuns: 400 };
const read = (c: Case, typed: string) => interpretReply(c.prompt, typed, undefined, { locale: c.locale });

describe("every reply form a rendered prompt suggests, typed as shown", () => {
  it("one question: the option's number, its label (with or without (Recommended)), several separated by commas, own words, other: …", () => {
    fc.assert(
      fc.property(caseArb(false), (c) => {
        const [question] = c.prompt.questions as [PromptQuestion];
        const typed = typeMeant(question, 0, c.meant[0] as Meant, c.shown);
        expect(read(c, typed), `typed ${JSON.stringify(typed)} to:\n${c.text}`).toEqual(expected(c));
      }),
      RUNS,
    );
  });

  it("several questions: one line per question, keyed by the number the prompt shows", () => {
    fc.assert(
      fc.property(caseArb(true), (c) => {
        const typed = keyedAnswers(c).join("\n");
        expect(read(c, typed), `typed ${JSON.stringify(typed)} to:\n${c.text}`).toEqual(expected(c));
      }),
      RUNS,
    );
  });

  it("several questions: keyed answers on one line, separated the way the example line shows", () => {
    fc.assert(
      fc.property(caseArb(true), (c) => {
        const typed = keyedAnswers(c).join(c.shown.exampleSeparator);
        expect(read(c, typed), `typed ${JSON.stringify(typed)} to:\n${c.text}`).toEqual(expected(c));
      }),
      RUNS,
    );
  });

  it("several questions: one plain line per question, in order", () => {
    fc.assert(
      fc.property(caseArb(true), (c) => {
        const all = { ...c, order: c.prompt.questions.map((_, index) => index) };
        const typed = all.order
          .map((index) =>
            typeMeant(c.prompt.questions[index] as PromptQuestion, index, c.meant[index] as Meant, c.shown),
          )
          .join("\n");
        expect(read(all, typed), `typed ${JSON.stringify(typed)} to:\n${c.text}`).toEqual(expected(all));
      }),
      RUNS,
    );
  });

  it("several questions: the example line itself, typed verbatim, picks option 1 of every question", () => {
    fc.assert(
      fc.property(caseArb(true), (c) => {
        const answers = Object.fromEntries(c.prompt.questions.map((q) => [q.id, [q.options[0]?.label]]));
        expect(read(c, c.shown.example ?? ""), `typed the example of:\n${c.text}`).toEqual({
          kind: "answers",
          answers,
          complete: true,
        });
      }),
      { numRuns: 100 },
    );
  });

  it("the skip word the prompt shows skips, in every locale", () => {
    fc.assert(
      fc.property(fc.oneof(caseArb(false), caseArb(true)), (c) => {
        expect(read(c, c.shown.skipWord), `typed ${JSON.stringify(c.shown.skipWord)} to:\n${c.text}`).toEqual(
          { kind: "skip" },
        );
      }),
      { numRuns: 100 },
    );
  });
});
