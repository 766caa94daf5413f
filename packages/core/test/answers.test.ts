import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nearLabel } from "../src/reply/near-label.ts";
import { checkAnswers, hasAnswersShape, operatorAnswersSchema } from "../src/schema/answers.ts";
import type { Prompt, PromptQuestion } from "../src/schema/schema.ts";

function question(id: string, labels: string[], multiSelect = false): PromptQuestion {
  return { id, header: id, question: `${id}?`, options: labels.map((label) => ({ label })), multiSelect };
}
const prompt: Prompt = {
  questions: [
    question("deploy_target", ["Staging (Recommended)", "Production"]),
    question("regions", ["EU", "US", "Asia-Pacific"], true),
  ],
  timeoutSeconds: 900,
};

describe("operator answers", () => {
  it.each([
    ["Prodution", "Production"],
    ["production.", "Production"],
    ["Pro duction", "Production"],
    ["stagign", "Staging (Recommended)"],
    ["PRODUCTOIN", "Production"],
  ])("refuses %j as a near miss of %j, with the free-text marker to use instead", (typed, label) => {
    const result = checkAnswers(prompt, { deploy_target: [typed], regions: ["EU"] });
    expect(result).toEqual({
      ok: false,
      issues: [
        {
          path: "answers.deploy_target[0]",
          message: `"${typed}" is not an option of deploy_target: did you mean "${label}"? To give it as your own answer, send "other: ${typed}".`,
        },
      ],
    });
  });

  it("takes a value marked other: as free text, exactly as given after the marker", () => {
    expect(checkAnswers(prompt, { deploy_target: ["other: Prodution"], regions: ["other:  UK "] })).toEqual({
      ok: true,
      answers: { deploy_target: ["Prodution"], regions: ["UK"] },
    });
  });

  it("keeps labels matched exactly (case, spacing, Recommended) and real free text", () => {
    expect(
      checkAnswers(prompt, { deploy_target: ["staging"], regions: ["asia-pacific", "us", "Mars colony"] }),
    ).toEqual({
      ok: true,
      answers: { deploy_target: ["Staging (Recommended)"], regions: ["US", "Asia-Pacific", "Mars colony"] },
    });
  });

  it("does not guess at short labels: UK is an answer of its own, not EU", () => {
    expect(nearLabel(question("r", ["EU", "US"]), "UK")).toBeUndefined();
    expect(nearLabel(question("r", ["EU", "US"]), "e.u.")).toBe("EU");
  });

  it("lists every problem at once", () => {
    const result = checkAnswers(prompt, {
      deploy_target: ["Prodution"],
      regions: ["Asia Pacifc", "other:"],
      x: [],
    });
    expect(result.ok === false && result.issues.map((i) => i.path)).toEqual([
      "answers.x",
      "answers.deploy_target[0]",
      "answers.regions[0]",
      "answers.regions[1]",
    ]);
  });

  it("takes one string as a one-value answer", () => {
    expect(checkAnswers(prompt, { deploy_target: "production", regions: "eu" })).toEqual({
      ok: true,
      answers: { deploy_target: ["Production"], regions: ["EU"] },
    });
  });

  it("points at the value that is not a string, and names what each answer must be", () => {
    expect(checkAnswers(prompt, { deploy_target: 5, regions: ["EU", null] })).toEqual({
      ok: false,
      issues: [
        { path: "answers.deploy_target", message: "Give the answer as an array of strings, not a number." },
        { path: "answers.regions[1]", message: "Give each value as a string, not null." },
      ],
    });
  });

  it("names the questions there are when an id is unknown or answers are not an object", () => {
    expect(checkAnswers(prompt, { deploy_target: ["Staging"], regions: ["EU"], region: ["EU"] })).toEqual({
      ok: false,
      issues: [
        {
          path: "answers.region",
          message: 'No question has the id "region". The questions are: deploy_target, regions.',
        },
      ],
    });
    expect(checkAnswers(prompt, [["Staging"]])).toEqual({
      ok: false,
      issues: [
        {
          path: "answers",
          message:
            'answers must be an object like { "deploy_target": ["Staging"] } (question id → values), not an array.',
        },
      ],
    });
  });

  it("asks for every missing answer, at least one value each, and one for a single-select question", () => {
    const result = checkAnswers(prompt, { deploy_target: ["Staging", "Production"] });
    expect(result).toEqual({
      ok: false,
      issues: [
        { path: "answers.deploy_target", message: "This question takes one answer, not several." },
        { path: "answers.regions", message: 'Answer "regions" (regions).' },
      ],
    });
    expect(checkAnswers(prompt, { deploy_target: [" "], regions: ["EU"] })).toEqual({
      ok: false,
      issues: [{ path: "answers.deploy_target", message: "Give at least one non-blank value." }],
    });
  });

  it("refuses a bare other: marker once, at its index", () => {
    expect(checkAnswers(prompt, { deploy_target: ["other:  "], regions: ["EU"] })).toEqual({
      ok: false,
      issues: [{ path: "answers.deploy_target[0]", message: 'Write your own answer after "other:".' }],
    });
  });
});

describe("operatorAnswersSchema, the shape whatever the prompt", () => {
  it("reads one string as a one-value answer and points at each bad value", () => {
    expect(operatorAnswersSchema.parse({ deploy_target: "Production" })).toEqual({
      deploy_target: ["Production"],
    });
    const parsed = operatorAnswersSchema.safeParse({ regions: ["EU", 7, "other:"] });
    expect(parsed.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([
      [["regions", 1], "Give each value as a string, not a number."],
      [["regions", 2], 'Write your own answer after "other:".'],
    ]);
  });

  it("is told apart without zod exactly as the schema tells it apart (the fast path of checkAnswers)", () => {
    const value = fc.oneof(
      fc.constantFrom("Production", "other:", " other: ", "other: mine", "", "EU"),
      fc.string(),
      fc.integer(),
      fc.constant(null),
      fc.boolean(),
    );
    const given = fc.oneof(value, fc.array(value, { maxLength: 4 }), fc.dictionary(fc.string(), value));
    const raw = fc.oneof(fc.dictionary(fc.string(), given), given, fc.array(given, { maxLength: 3 }));
    fc.assert(
      fc.property(raw, (answers) => {
        expect(hasAnswersShape(answers)).toBe(operatorAnswersSchema.safeParse(answers).success);
      }),
      { numRuns: 2000 },
    );
    expect(hasAnswersShape({ deploy_target: ["Production"], regions: "EU" })).toBe(true);
    expect(hasAnswersShape({ regions: ["EU", 7] })).toBe(false);
    expect(hasAnswersShape({ regions: "other:" })).toBe(false);
  }, 60_000); // 2,000 runs: a few seconds, more on a loaded machine
});
