import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InvalidAskUserInputError } from "../src/model/errors.ts";
import { normalizeAskUserInput } from "../src/schema/normalize.ts";
import { askUserInputSchema } from "../src/schema/schema.ts";

const anyValue = fc.anything({ withNullPrototype: true, withBigInt: true, withMap: true, withSet: true });
const label = fc.oneof(
  fc.string({ minLength: 1, maxLength: 70 }),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 10 }),
  fc.constantFrom("Other", "Staging (Recommended)", "staging", " "),
);
const nearlyValid = fc.record(
  {
    questions: fc.array(
      fc.record(
        {
          id: fc.oneof(
            fc.constantFrom("a", "deploy_target", "b_2"),
            fc.constantFrom("c"),
            fc.string({ maxLength: 70 }),
          ),
          header: fc.string({ unit: "grapheme", maxLength: 30 }),
          question: fc.string({ maxLength: 40 }),
          options: fc.array(
            fc.record(
              { label, description: fc.option(fc.string(), { nil: undefined }) },
              { requiredKeys: ["label"] },
            ),
            { minLength: 1, maxLength: 5 },
          ),
          multiSelect: fc.oneof(fc.boolean(), fc.boolean(), anyValue),
        },
        { requiredKeys: ["id", "header", "question", "options"] },
      ),
      { minLength: 1, maxLength: 4 },
    ),
    timeoutSeconds: fc.oneof(fc.integer(), fc.integer(), fc.double(), anyValue),
  },
  { requiredKeys: ["questions"] },
);

/** Always-valid input: distinct ids and labels, within every limit (with random spacing and case). */
const validInput = fc
  .record({
    count: fc.integer({ min: 1, max: 3 }),
    optionCount: fc.integer({ min: 2, max: 4 }),
    words: fc.uniqueArray(fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ,]{0,20}$/), {
      minLength: 12,
      maxLength: 12,
      selector: (w) => w.trim().toLowerCase().replace(/\s+/g, " "),
    }),
    header: fc.string({ unit: "grapheme", minLength: 1, maxLength: 20 }).filter((h) => h.trim() !== ""),
    multiSelect: fc.boolean(),
    timeoutSeconds: fc.option(fc.integer({ min: -10_000, max: 10_000 }), { nil: undefined }),
  })
  .filter(({ words }) => words.every((w) => !["other", "sonstiges"].includes(w.trim().toLowerCase())))
  .map(({ count, optionCount, words, header, multiSelect, timeoutSeconds }) => ({
    questions: Array.from({ length: count }, (_, q) => ({
      id: `q_${q}`,
      header,
      question: `Question ${q}?`,
      options: Array.from({ length: optionCount }, (_, o) => ({ label: `  ${words[q * 4 + o]} ` })),
      multiSelect,
    })),
    ...(timeoutSeconds === undefined ? {} : { timeoutSeconds }),
  }));

describe("normalizeAskUserInput on arbitrary input", () => {
  it("never throws anything but InvalidAskUserInputError, and that one always lists issues with paths", () => {
    fc.assert(
      fc.property(fc.oneof(anyValue, nearlyValid), (raw) => {
        try {
          normalizeAskUserInput(raw);
        } catch (error) {
          expect(error).toBeInstanceOf(InvalidAskUserInputError);
          const issues = (error as InvalidAskUserInputError).issues;
          expect(issues.length).toBeGreaterThan(0);
          for (const issue of issues) {
            expect(typeof issue.path).toBe("string");
            expect(issue.message.trim().length).toBeGreaterThan(0);
          }
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("returns a valid prompt whenever it accepts, which normalises to itself", () => {
    let accepted = 0;
    fc.assert(
      fc.property(fc.oneof(nearlyValid, validInput), (raw) => {
        let prompt: ReturnType<typeof normalizeAskUserInput>;
        try {
          prompt = normalizeAskUserInput(raw);
        } catch {
          return;
        }
        accepted++;
        expect(askUserInputSchema.safeParse(prompt).success).toBe(true);
        expect(normalizeAskUserInput(prompt)).toEqual(prompt);
        expect(prompt.timeoutSeconds).toBeGreaterThanOrEqual(30);
        expect(prompt.timeoutSeconds).toBeLessThanOrEqual(3600);
        expect(prompt.questions.length).toBeGreaterThanOrEqual(1);
        expect(prompt.questions.length).toBeLessThanOrEqual(3);
        for (const q of prompt.questions) {
          expect(typeof q.multiSelect).toBe("boolean");
          expect(q.options.length).toBeGreaterThanOrEqual(2);
          expect(q.options.length).toBeLessThanOrEqual(4);
          expect(q.header.length).toBeGreaterThan(0);
          for (const o of q.options) expect(o.label).toBe(o.label.trim());
        }
      }),
      { numRuns: 2000 },
    );
    // The generator must reach the accepting branch often enough for the property to mean something.
    expect(accepted).toBeGreaterThan(500);
  });
});
