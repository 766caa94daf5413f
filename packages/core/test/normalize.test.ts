import { describe, expect, it } from "vitest";
import { InvalidAskUserInputError } from "../src/model/errors.ts";
import { normalizeAskUserInput } from "../src/schema/normalize.ts";

const option = (label: string, description?: string) =>
  description === undefined ? { label } : { label, description };
const question = (overrides: Record<string, unknown> = {}) => ({
  id: "deploy_target",
  header: "Deploy",
  question: "Where should I deploy?",
  options: [option("Staging (Recommended)"), option("Production")],
  ...overrides,
});

function issuesOf(raw: unknown) {
  try {
    normalizeAskUserInput(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidAskUserInputError);
    return (error as InvalidAskUserInputError).issues;
  }
  throw new Error("expected the input to be refused");
}

describe("normalizeAskUserInput", () => {
  it("fills defaults: 900 s timeout and multiSelect false", () => {
    const prompt = normalizeAskUserInput({ questions: [question()] });
    expect(prompt).toEqual({
      questions: [
        {
          id: "deploy_target",
          header: "Deploy",
          question: "Where should I deploy?",
          options: [{ label: "Staging (Recommended)" }, { label: "Production" }],
          multiSelect: false,
        },
      ],
      timeoutSeconds: 900,
    });
  });

  it("trims every string and drops blank descriptions", () => {
    const prompt = normalizeAskUserInput({
      questions: [
        question({
          header: "  Deploy ",
          question: "  Where?  ",
          options: [option("  A  ", "   "), option("B", "  the second  ")],
          multiSelect: true,
        }),
      ],
    });
    expect(prompt.questions[0]).toEqual({
      id: "deploy_target",
      header: "Deploy",
      question: "Where?",
      options: [{ label: "A" }, { label: "B", description: "the second" }],
      multiSelect: true,
    });
  });

  it.each([
    [29, 30],
    [30, 30],
    [0, 30],
    [-5, 30],
    [120, 120],
    [3600, 3600],
    [3601, 3600],
    [99999, 3600],
  ])("clamps timeoutSeconds %i to %i", (given, expected) => {
    expect(normalizeAskUserInput({ questions: [question()], timeoutSeconds: given }).timeoutSeconds).toBe(
      expected,
    );
  });

  it.each([[1.5], ["60"], [Number.NaN], [Number.POSITIVE_INFINITY], [null], [true]])(
    "refuses timeoutSeconds %s",
    (given) => {
      expect(issuesOf({ questions: [question()], timeoutSeconds: given })).toEqual([
        { path: "timeoutSeconds", message: expect.stringContaining("whole number") },
      ]);
    },
  );

  it("cuts headers to 12 grapheme clusters, not UTF-16 units", () => {
    const family = "👨‍👩‍👧‍👦"; // one grapheme, 11 UTF-16 units
    const prompt = normalizeAskUserInput({
      questions: [
        question({ header: `${family.repeat(13)}` }),
        question({ id: "b", header: "Deployment target" }),
      ],
    });
    expect(prompt.questions[0]?.header).toBe(family.repeat(12));
    expect(prompt.questions[1]?.header).toBe("Deployment t");
    const accents = "e\u0301".repeat(14);
    expect(normalizeAskUserInput({ questions: [question({ header: accents })] }).questions[0]?.header).toBe(
      "e\u0301".repeat(12),
    );
  });

  it("lists every problem at once, each with its path", () => {
    const issues = issuesOf({
      questions: [
        question({ id: "Deploy-Target" }),
        question({
          id: "region",
          header: "",
          question: "   ",
          options: [option(""), option("Other"), option("eu"), option("EU (Recommended)"), option("x")],
          extra: 1,
        }),
      ],
      timeoutSeconds: "soon",
      mode: "fast",
    });
    expect(issues.map((issue) => issue.path)).toEqual([
      "mode",
      "questions[0].id",
      "questions[1].extra",
      "questions[1].header",
      "questions[1].question",
      "questions[1].options",
      "questions[1].options[0].label",
      "questions[1].options[1].label",
      "questions[1].options[3].label",
      "timeoutSeconds",
    ]);
    for (const issue of issues) expect(issue.message.length).toBeGreaterThan(10);
  });

  it("reads well to a model: one line per problem, no stack trace", () => {
    try {
      normalizeAskUserInput({ questions: [question({ options: [option("Other…"), option("B")] })] });
      expect.unreachable();
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toBe(
        'The ask_user input has 1 problem; fix it and call again:\n- questions[0].options[0].label: Remove the "Other…" option: a free-text "Other" answer is always added by the system.',
      );
      expect(message).not.toMatch(/\bat \w+ \(/);
    }
  });

  it.each([["Other"], ["other"], ["Other..."], ["Other…"], ["SONSTIGES"], ["Other (Recommended)"]])(
    "refuses an authored %s option",
    (label) => {
      expect(issuesOf({ questions: [question({ options: [option("A"), option(label)] })] })).toEqual([
        { path: "questions[0].options[1].label", message: expect.stringContaining("always added") },
      ]);
    },
  );

  it.each([["Skip"], ["skip"], ["/skip"], ["Überspringen"], ["Skip (Recommended)"]])(
    "refuses an option labelled %s, which would read like the system's Skip",
    (label) => {
      expect(issuesOf({ questions: [question({ options: [option("A"), option(label)] })] })).toEqual([
        { path: "questions[0].options[1].label", message: expect.stringContaining("Skip") },
      ]);
    },
  );

  it("keeps labels that only start with a skip word", () => {
    const prompt = normalizeAskUserInput({
      questions: [question({ options: [option("Skip tests"), option("Run tests")] })],
    });
    expect(prompt.questions[0]?.options.map((o) => o.label)).toEqual(["Skip tests", "Run tests"]);
  });

  it("treats labels as duplicates ignoring case and a trailing (Recommended)", () => {
    expect(
      issuesOf({ questions: [question({ options: [option("Staging (Recommended)"), option("staging")] })] }),
    ).toEqual([
      { path: "questions[0].options[1].label", message: expect.stringContaining("Duplicate label") },
    ]);
  });

  it("refuses duplicate question ids", () => {
    expect(issuesOf({ questions: [question(), question()] })).toEqual([
      { path: "questions[1].id", message: expect.stringContaining("Duplicate id") },
    ]);
  });

  it.each([
    [{ questions: [] }, "questions", "Ask 1-3 questions, not 0."],
    [
      { questions: [question(), question({ id: "b" }), question({ id: "c" }), question({ id: "d" })] },
      "questions",
      "Ask 1-3",
    ],
    [
      { questions: [question({ options: [option("A")] })] },
      "questions[0].options",
      "Give 2-4 options, not 1.",
    ],
    [
      { questions: [question({ options: ["A", "B", "C", "D", "E"].map((l) => option(l)) })] },
      "questions[0].options",
      "not 5",
    ],
    [{ questions: [question({ id: "a".repeat(65) })] }, "questions[0].id", "snake_case"],
    [{ questions: [question({ id: "1st" })] }, "questions[0].id", "snake_case"],
    [
      { questions: [question({ options: [option("A".repeat(65)), option("B")] })] },
      "questions[0].options[0].label",
      "at most 64",
    ],
    [{ questions: [question({ multiSelect: "yes" })] }, "questions[0].multiSelect", "true or false"],
    [
      { questions: [question({ options: [option("A", 5 as unknown as string), option("B")] })] },
      "questions[0].options[0].description",
      "string",
    ],
    [{ questions: "deploy?" }, "questions", "must be an array"],
    [{}, "questions", "required"],
    [{ questions: [7] }, "questions[0]", "must be an object"],
    [{ questions: [question({ question: undefined })] }, "questions[0].question", "required"],
  ])("refuses %j at %s", (raw, path, text) => {
    const issues = issuesOf(raw);
    expect(issues).toHaveLength(1);
    expect(issues[0]?.path).toBe(path);
    expect(issues[0]?.message).toContain(text);
  });

  it.each([[null], [undefined], ["text"], [[1, 2]], [42]])("refuses a non-object input %j", (raw) => {
    expect(issuesOf(raw)).toEqual([{ path: "", message: expect.stringContaining("must be an object") }]);
  });

  it("accepts 64-character labels and ids", () => {
    const prompt = normalizeAskUserInput({
      questions: [question({ id: `a${"b".repeat(63)}`, options: [option("L".repeat(64)), option("B")] })],
    });
    expect(prompt.questions[0]?.options[0]?.label).toHaveLength(64);
  });

  it("is idempotent: a normalised prompt normalises to itself", () => {
    const prompt = normalizeAskUserInput({
      questions: [question({ header: " Deployment target " })],
      timeoutSeconds: 5,
    });
    expect(normalizeAskUserInput(prompt)).toEqual(prompt);
  });
});
