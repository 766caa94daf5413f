import { describe, expect, expectTypeOf, it } from "vitest";
import { InvalidAskUserInputError } from "../src/model/errors.ts";
import { normalizeAskUserInput } from "../src/schema/normalize.ts";
import {
  type AskUserInput,
  askUserInputSchema,
  LIMITS,
  type Prompt,
  type PromptOption,
  type PromptQuestion,
} from "../src/schema/schema.ts";
import { askUserTool } from "../src/schema/tool.ts";

const family = "👨‍👩‍👧‍👦"; // one grapheme cluster, 11 UTF-16 units
const accented = "e\u0301"; // one grapheme cluster, 2 UTF-16 units

const question = (overrides: Record<string, unknown> = {}) => ({
  id: "deploy_target",
  header: "Deploy",
  question: "Where should I deploy?",
  options: [{ label: "Staging (Recommended)" }, { label: "Production" }],
  ...overrides,
});
const withLabel = (label: string) => ({
  questions: [question({ options: [{ label }, { label: "Production" }] })],
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

// biome-ignore lint/suspicious/noExplicitAny: walking a JSON Schema document in a test
const jsonSchema = askUserTool.inputSchema as Record<string, any>;
const questionJson = jsonSchema.properties.questions.items;
const labelJson = questionJson.properties.options.items.properties.label;

describe("one rule set: the zod schema is the normaliser", () => {
  it.each([
    ["emoji", family],
    ["accented letters", accented],
  ])("accepts a label of 64 %s in the schema and the normaliser alike", (_, grapheme) => {
    const raw = withLabel(grapheme.repeat(64));
    expect(askUserInputSchema.safeParse(raw).success).toBe(true);
    expect(normalizeAskUserInput(raw).questions[0]?.options[0]?.label).toBe(grapheme.repeat(64));
  });

  it.each([
    ["emoji", family],
    ["accented letters", accented],
  ])("refuses a label of 65 %s in the schema and the normaliser alike, with the count", (_, grapheme) => {
    const raw = withLabel(grapheme.repeat(65));
    const parsed = askUserInputSchema.safeParse(raw);
    expect(parsed.error?.issues.map((issue) => issue.path)).toEqual([
      ["questions", 0, "options", 0, "label"],
    ]);
    expect(issuesOf(raw)).toEqual([
      {
        path: "questions[0].options[0].label",
        message:
          "The option label is 65 characters long; at most 64 (an emoji or an accented letter counts as one).",
      },
    ]);
  });

  it("counts the question and the description in grapheme clusters too", () => {
    const raw = {
      questions: [
        question({
          question: family.repeat(LIMITS.questionMaxLength),
          options: [{ label: "A", description: family.repeat(LIMITS.descriptionMaxLength) }, { label: "B" }],
        }),
      ],
    };
    expect(normalizeAskUserInput(raw).questions[0]?.question).toBe(family.repeat(1000));
    const longer = {
      questions: [
        question({
          question: family.repeat(1001),
          options: [{ label: "A", description: family.repeat(501) }, { label: "B" }],
        }),
      ],
    };
    expect(issuesOf(longer).map((issue) => [issue.path, issue.message.split(";")[0]])).toEqual([
      ["questions[0].question", "The question is 1001 characters long"],
      ["questions[0].options[0].description", "The description is 501 characters long"],
    ]);
  });

  it("parses to exactly the prompt the normaliser returns", () => {
    const raw = {
      questions: [
        question({
          header: "  Deployment target ",
          options: [{ label: " A ", description: " " }, { label: "B" }],
        }),
      ],
      timeoutSeconds: 1e21,
    };
    const prompt = normalizeAskUserInput(raw);
    expect(askUserInputSchema.parse(raw)).toEqual(prompt);
    expect(prompt).toEqual({
      questions: [
        {
          id: "deploy_target",
          header: "Deployment t",
          question: "Where should I deploy?",
          options: [{ label: "A" }, { label: "B" }],
          multiSelect: false,
        },
      ],
      timeoutSeconds: 3600,
    });
    expect(Object.keys(prompt.questions[0]?.options[0] ?? {})).toEqual(["label"]);
  });

  it("derives Prompt, PromptQuestion, PromptOption and AskUserInput from the schema", () => {
    expectTypeOf<PromptOption>().toEqualTypeOf<{ label: string; description?: string }>();
    expectTypeOf<PromptQuestion>().toEqualTypeOf<{
      id: string;
      header: string;
      question: string;
      options: PromptOption[];
      multiSelect: boolean;
    }>();
    expectTypeOf<Prompt>().toEqualTypeOf<{ questions: PromptQuestion[]; timeoutSeconds: number }>();
    expectTypeOf<AskUserInput["timeoutSeconds"]>().toEqualTypeOf<number | undefined>();
    expectTypeOf<AskUserInput["questions"][number]["multiSelect"]>().toEqualTypeOf<boolean | undefined>();
  });
});

describe("every problem at once, even among malformed items", () => {
  it("counts the options and checks their labels when some options are not objects", () => {
    const raw = {
      questions: [question({ options: [5, { label: "A" }, "B", { label: "a" }, { label: 7 }] })],
    };
    expect(issuesOf(raw)).toEqual([
      { path: "questions[0].options", message: "Give 2-4 options, not 5; ask about the most likely ones." },
      {
        path: "questions[0].options[0]",
        message: "Each option must be an object { label, description? }, not a number.",
      },
      {
        path: "questions[0].options[2]",
        message: "Each option must be an object { label, description? }, not a string.",
      },
      {
        path: "questions[0].options[3].label",
        message: 'Duplicate label "a": it reads the same as option 2. Labels must differ.',
      },
      { path: "questions[0].options[4].label", message: "The option label must be a string, not a number." },
    ]);
  });

  it("finds duplicate ids and too many questions next to a question that is not an object", () => {
    const raw = { questions: [question(), null, question({ id: " deploy_target " }), question({ id: "c" })] };
    expect(issuesOf(raw)).toEqual([
      { path: "questions", message: "Ask 1-3 questions, not 4; keep only the decisions that block you." },
      {
        path: "questions[1]",
        message: "Each question must be an object { id, header, question, options, multiSelect? }, not null.",
      },
      {
        path: "questions[2].id",
        message: 'Duplicate id "deploy_target" (also questions[0]): each question needs its own id.',
      },
    ]);
  });

  it("lists each unknown key on its own, first in its object, with the fields that are allowed", () => {
    expect(issuesOf({ questions: [question({ header: "", colour: "red", size: 2 })], mode: 1 })).toEqual([
      { path: "mode", message: 'Unknown field "mode". Allowed fields: questions, timeoutSeconds.' },
      {
        path: "questions[0].colour",
        message: 'Unknown field "colour". Allowed fields: id, header, question, options, multiSelect.',
      },
      {
        path: "questions[0].size",
        message: 'Unknown field "size". Allowed fields: id, header, question, options, multiSelect.',
      },
      { path: "questions[0].header", message: "The header must not be blank." },
    ]);
  });

  it("says a blank id is blank, once, without also calling it not snake_case", () => {
    expect(issuesOf({ questions: [question({ id: "  " })] })).toEqual([
      { path: "questions[0].id", message: "The id must not be blank." },
    ]);
  });
});

describe("labels the system adds itself, in every catalogue's words", () => {
  it.each([["Sonstiges..."], ["sonstiges…"], ["Andere"], ["Überspringen…"], ["/ÜBERSPRINGEN"], ["Skip…"]])(
    "refuses %s",
    (label) => {
      expect(issuesOf(withLabel(label)).map((issue) => issue.path)).toEqual([
        "questions[0].options[0].label",
      ]);
    },
  );

  it.each([["Otherwise"], ["Skip the tests"], ["Andere Region"]])("keeps %s", (label) => {
    expect(normalizeAskUserInput(withLabel(label)).questions[0]?.options[0]?.label).toBe(label);
  });
});

describe("the JSON Schema is the schema's input side", () => {
  it("does not count labels in UTF-16 units or code points, and says how they are counted", () => {
    for (const text of [labelJson, questionJson.properties.question, questionJson.properties.header]) {
      expect(text.maxLength).toBeUndefined();
    }
    expect(labelJson.description).toContain(
      "at most 64 characters, counted as user-perceived characters (grapheme clusters",
    );
    expect(questionJson.properties.header.description).toContain("cut to 12 user-perceived characters");
  });

  it("carries the limits the schema checks, from the same numbers", () => {
    expect(questionJson.properties.id).toMatchObject({
      pattern: "^[a-z][a-z0-9_]*$",
      maxLength: 64,
      minLength: 1,
    });
    expect(questionJson.properties.options).toMatchObject({ minItems: 2, maxItems: 4 });
    expect(jsonSchema.properties.questions).toMatchObject({ minItems: 1, maxItems: 3 });
    expect(jsonSchema.properties.timeoutSeconds).toEqual({
      type: "integer",
      default: 900,
      description: "How long to wait for an answer, in seconds. Default 900; values are clamped to 30..3600.",
    });
    expect(questionJson.properties.multiSelect).toMatchObject({ type: "boolean", default: false });
  });

  it("is one plain document: draft 2020-12, no $ref or $defs", () => {
    expect(jsonSchema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(JSON.stringify(jsonSchema)).not.toMatch(/"\$ref"|"\$defs"|"definitions"/);
  });
});
