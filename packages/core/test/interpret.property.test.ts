import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Answers } from "../src/model/types.ts";
import { compareKey, replaceKeycaps } from "../src/prompt/text.ts";
import { interpretReply, type ReplyInterpretation } from "../src/reply/interpret.ts";
import type { Prompt, PromptQuestion } from "../src/schema/schema.ts";

const LINE_BREAK = /[\r\n\u2028\u2029]/u;
const BARE_NUMBER = /^[0-9]+$/;

/** How a reply compares to a label: labels that read the same (even via keycaps) cannot both exist. */
const labelKey = (label: string) => compareKey(replaceKeycaps(label));

const labelArb = fc
  .oneof(
    fc.string({ unit: "grapheme", minLength: 1, maxLength: 16 }),
    fc.string({ unit: "binary", minLength: 1, maxLength: 16 }),
    fc.constantFrom(
      "Skip",
      "/skip",
      "10",
      "3",
      "Lint, format",
      "a; b",
      "Staging (Recommended)",
      "other: x",
      "1 3",
    ),
  )
  .map((label) => label.trim())
  .filter((label) => labelKey(label) !== "" && !LINE_BREAK.test(label));

const questionArb = (id: string): fc.Arbitrary<PromptQuestion> =>
  fc.record({
    id: fc.constant(id),
    header: fc
      .string({ unit: "grapheme", minLength: 1, maxLength: 12 })
      .map((header) => header.trim() || "Q"),
    question: fc.constant("Which one?"),
    options: fc
      .uniqueArray(labelArb, { minLength: 2, maxLength: 4, selector: labelKey })
      .map((labels) => labels.map((label) => ({ label }))),
    multiSelect: fc.boolean(),
  });

const promptArb: fc.Arbitrary<Prompt> = fc
  .uniqueArray(fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/), { minLength: 1, maxLength: 3 })
  .chain((ids) => fc.tuple(...ids.map(questionArb)))
  .map((questions) => ({ questions, timeoutSeconds: 900 }));

/** Replies built from the pieces the parser looks for, so that the interesting paths are reached. */
const replyArb = (prompt: Prompt): fc.Arbitrary<string> => {
  const labels = prompt.questions.flatMap((question) => question.options.map((option) => option.label));
  const ids = prompt.questions.flatMap((question) => [question.id, question.header]);
  const token = fc.oneof(
    fc.constantFrom(...labels, ...ids),
    fc.constantFrom(
      "1",
      "2",
      "3",
      "4",
      "0",
      "7",
      "2️⃣",
      "🔟",
      "skip",
      "/skip",
      "überspringen",
      "other:",
      "sonstiges:",
    ),
    fc.constantFrom(", ", ",", ";", "\n", "\r\n", " ", ": ", ":", " = ", ") ", '"', "“", "(Recommended)"),
    fc.string({ unit: "binary", maxLength: 4 }),
  );
  return fc.array(token, { maxLength: 12 }).map((tokens) => tokens.join(""));
};

const textArb = (prompt: Prompt): fc.Arbitrary<string> =>
  fc.oneof(fc.string({ unit: "binary" }), fc.string({ unit: "grapheme" }), replyArb(prompt));

const draftArb = (prompt: Prompt): fc.Arbitrary<Answers> =>
  fc.dictionary(
    fc.oneof(fc.constantFrom(...prompt.questions.map((question) => question.id)), fc.string()),
    fc.array(fc.string(), { maxLength: 3 }),
  );

/** The result is one of the three shapes and keeps every promise about answers. */
function expectValidShape(prompt: Prompt, result: ReplyInterpretation, checkOrder: boolean): void {
  if (result.kind === "skip") {
    expect(result).toEqual({ kind: "skip" });
    return;
  }
  if (result.kind === "invalid") {
    expect(typeof result.message).toBe("string");
    expect(result.message.length).toBeGreaterThan(0);
    return;
  }
  expect(result.kind).toBe("answers");
  const ids = prompt.questions.map((question) => question.id);
  expect(Object.keys(result.answers).every((key) => ids.includes(key))).toBe(true);
  expect(result.complete).toBe(ids.every((id) => Object.hasOwn(result.answers, id)));
  for (const question of prompt.questions) {
    const values = result.answers[question.id];
    if (values === undefined) continue;
    expect(values.length).toBeGreaterThan(0);
    expect(new Set(values).size).toBe(values.length);
    if (!checkOrder) continue;
    const labels = question.options.map((option) => option.label);
    const chosen = values.filter((value) => labels.includes(value));
    // Labels first, in option order; then free text, none of which is a label.
    expect(values.slice(0, chosen.length)).toEqual(chosen);
    expect(chosen).toEqual(labels.filter((label) => chosen.includes(label)));
    if (!question.multiSelect) expect(values.length).toBe(1);
  }
}

describe("interpretReply properties", () => {
  it("never throws and always returns a valid shape", () => {
    fc.assert(
      fc.property(
        promptArb.chain((prompt) => fc.tuple(fc.constant(prompt), textArb(prompt))),
        fc.constantFrom("en", "de"),
        ([prompt, text], locale) => {
          expectValidShape(prompt, interpretReply(prompt, text, undefined, { locale }), true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("never throws with any draft, and keeps only the prompt's questions", () => {
    fc.assert(
      fc.property(
        promptArb.chain((prompt) => fc.tuple(fc.constant(prompt), textArb(prompt), draftArb(prompt))),
        ([prompt, text, draft]) => {
          expectValidShape(prompt, interpretReply(prompt, text, draft), false);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("selects exactly the option whose label is the reply", () => {
    fc.assert(
      fc.property(
        promptArb.chain((prompt) =>
          fc.tuple(
            fc.constant(prompt),
            fc.tuple(...prompt.questions.map((question) => fc.nat({ max: question.options.length - 1 }))),
          ),
        ),
        ([prompt, picks]) => {
          const labels = prompt.questions.map(
            (question, index) => question.options[picks[index] ?? 0]?.label ?? "",
          );
          const [first] = prompt.questions;
          if (first === undefined) return;
          const text =
            prompt.questions.length === 1
              ? (labels[0] ?? "")
              : labels.map((label, index) => `${index + 1}: ${label}`).join("\n");
          const expected = Object.fromEntries(
            prompt.questions.map((question, index) => [question.id, [labels[index]]]),
          );
          expect(interpretReply(prompt, text)).toEqual({
            kind: "answers",
            answers: expected,
            complete: true,
          });
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("selects the option whose 1-based number is the reply when no label is a number", () => {
    const noNumericLabels = promptArb.filter((prompt) =>
      prompt.questions.every((question) =>
        question.options.every((option) => !BARE_NUMBER.test(labelKey(option.label))),
      ),
    );
    fc.assert(
      fc.property(
        noNumericLabels.chain((prompt) =>
          fc.tuple(
            fc.constant(prompt),
            fc.tuple(
              ...prompt.questions.map((question) => fc.integer({ min: 1, max: question.options.length })),
            ),
          ),
        ),
        ([prompt, numbers]) => {
          const text =
            prompt.questions.length === 1
              ? String(numbers[0])
              : numbers.map((n, index) => `${index + 1}: ${n}`).join("\n");
          const expected = Object.fromEntries(
            prompt.questions.map((question, index) => [
              question.id,
              [question.options[(numbers[index] ?? 1) - 1]?.label],
            ]),
          );
          expect(interpretReply(prompt, text)).toEqual({
            kind: "answers",
            answers: expected,
            complete: true,
          });
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("answers huge and hostile replies without throwing", () => {
    const [question] = fc.sample(questionArb("target"), { numRuns: 1, seed: 42 });
    if (question === undefined) throw new Error("no sample");
    const prompt: Prompt = { questions: [question, { ...question, id: "second" }], timeoutSeconds: 900 };
    const hostile = [
      "\uD800".repeat(19_999),
      "\uFDFA".repeat(19_999), // expands 18-fold under NFKC
      "1 ".repeat(9_999),
      ",".repeat(19_999),
      "1: x\n".repeat(3_999),
      "\u0000\u0007\u001b[31m\u202e",
      "a".repeat(5_000_000),
    ];
    for (const text of hostile) {
      for (const candidate of [prompt, { ...prompt, questions: [question] }]) {
        expectValidShape(candidate, interpretReply(candidate, text), true);
      }
    }
  });
});
