import { z } from "zod";
import { compareKey, truncateGraphemes } from "../prompt/text.ts";
import { notReservedLabel } from "./reserved-labels.ts";
import { describeValue, itemCount, maxGraphemes, requiredText, strictFields, uniqueField } from "./rules.ts";

/** Limits of the tool input (SPEC §2). Every length is counted in grapheme clusters. */
export const LIMITS = {
  questionsMin: 1,
  questionsMax: 3,
  optionsMin: 2,
  optionsMax: 4,
  idMaxLength: 64,
  headerMaxGraphemes: 12,
  labelMaxLength: 64,
  questionMaxLength: 1000,
  descriptionMaxLength: 500,
  timeoutDefaultSeconds: 900,
  timeoutMinSeconds: 30,
  timeoutMaxSeconds: 3600,
} as const;

/** The pattern of a question id: snake_case, starting with a letter. */
export const QUESTION_ID_PATTERN = /^[a-z][a-z0-9_]*$/;

const id = requiredText("The id")
  .refine(
    (value) => value === "" || (QUESTION_ID_PATTERN.test(value) && value.length <= LIMITS.idMaxLength),
    {
      error: (issue) =>
        `The id "${issue.input as string}" must be snake_case (a-z, 0-9, _; starting with a letter), at most ${LIMITS.idMaxLength} characters, e.g. "deploy_target".`,
    },
  )
  .meta({
    pattern: QUESTION_ID_PATTERN.source,
    maxLength: LIMITS.idMaxLength,
    description: "Unique snake_case key of this question's answer in the result, e.g. deploy_target.",
  });

const label = requiredText("The option label")
  .check(maxGraphemes(LIMITS.labelMaxLength, "The option label"), notReservedLabel)
  .describe(
    `The answer value returned to you: at most ${LIMITS.labelMaxLength} characters, counted as user-perceived characters (grapheme clusters: an emoji or an accented letter is one). The first (recommended) option ends with ' (Recommended)'.`,
  );

const description = z
  .string({ error: (issue) => `The description must be a string, not ${describeValue(issue.input)}.` })
  .trim()
  .check(maxGraphemes(LIMITS.descriptionMaxLength, "The description"))
  .optional()
  .describe(
    `Optional: what choosing this option means, one short line (at most ${LIMITS.descriptionMaxLength} characters).`,
  );

/** One option of a question, as the model writes it; parsing trims it and drops a blank description. */
export const askUserOptionSchema = strictFields({ label, description }, "Each option").transform(
  (option): { label: string; description?: string } =>
    option.description ? { label: option.label, description: option.description } : { label: option.label },
);

const options = itemCount(
  z.array(askUserOptionSchema, {
    error: (issue) =>
      issue.input === undefined
        ? `options is required: give ${LIMITS.optionsMin}-${LIMITS.optionsMax} options.`
        : `options must be an array of ${LIMITS.optionsMin}-${LIMITS.optionsMax} options, not ${describeValue(issue.input)}.`,
  }),
  LIMITS.optionsMin,
  LIMITS.optionsMax,
  (count) =>
    `Give ${LIMITS.optionsMin}-${LIMITS.optionsMax} options, not ${count}${count > LIMITS.optionsMax ? "; ask about the most likely ones" : ""}.`,
)
  .check(
    uniqueField(
      "label",
      compareKey,
      (value, first) =>
        `Duplicate label "${value}": it reads the same as option ${first + 1}. Labels must differ.`,
    ),
  )
  .describe(
    "2-4 choices, recommended first. Never add an 'Other' option: free text is always offered. Never label an option 'Skip': Skip is always offered.",
  );

/** One question, as the model writes it; parsing trims it, cuts the header and sets `multiSelect`. */
export const askUserQuestionSchema = strictFields(
  {
    id,
    header: requiredText("The header")
      .overwrite((header) => truncateGraphemes(header, LIMITS.headerMaxGraphemes).trim())
      .describe(
        `Very short label shown above the question; cut to ${LIMITS.headerMaxGraphemes} user-perceived characters (an emoji counts as one).`,
      ),
    question: requiredText("The question")
      .check(maxGraphemes(LIMITS.questionMaxLength, "The question"))
      .describe(`The question, one complete sentence (at most ${LIMITS.questionMaxLength} characters).`),
    options,
    multiSelect: z
      .boolean({ error: (issue) => `multiSelect must be true or false, not ${describeValue(issue.input)}.` })
      .default(false)
      .describe("true only when several options may be chosen together."),
  },
  "Each question",
);

function timeoutIssue(issue: { input?: unknown }): string {
  const given = typeof issue.input === "number" ? String(issue.input) : describeValue(issue.input);
  return `timeoutSeconds must be a whole number of seconds (${LIMITS.timeoutMinSeconds}-${LIMITS.timeoutMaxSeconds}), not ${given}.`;
}

/** A whole number of seconds, clamped to 30..3600 (not refused), 900 when left out. */
const timeoutSeconds = z
  .number({ error: timeoutIssue })
  .refine(Number.isInteger, { error: timeoutIssue })
  .overwrite((seconds) => Math.min(LIMITS.timeoutMaxSeconds, Math.max(LIMITS.timeoutMinSeconds, seconds)))
  .default(LIMITS.timeoutDefaultSeconds)
  // Any integer is accepted (and clamped), so the JSON Schema says integer without a range.
  .meta({
    type: "integer",
    description: `How long to wait for an answer, in seconds. Default ${LIMITS.timeoutDefaultSeconds}; values are clamped to ${LIMITS.timeoutMinSeconds}..${LIMITS.timeoutMaxSeconds}.`,
  });

const questions = itemCount(
  z.array(askUserQuestionSchema, {
    error: (issue) =>
      issue.input === undefined
        ? `questions is required: give ${LIMITS.questionsMin}-${LIMITS.questionsMax} questions.`
        : `questions must be an array of ${LIMITS.questionsMin}-${LIMITS.questionsMax} questions, not ${describeValue(issue.input)}.`,
  }),
  LIMITS.questionsMin,
  LIMITS.questionsMax,
  (count) =>
    `Ask ${LIMITS.questionsMin}-${LIMITS.questionsMax} questions, not ${count}${count > LIMITS.questionsMax ? "; keep only the decisions that block you" : ""}.`,
)
  .check(
    uniqueField(
      "id",
      (value) => value,
      (value, first) => `Duplicate id "${value}" (also questions[${first}]): each question needs its own id.`,
    ),
  )
  .describe("1-3 questions; prefer exactly one.");

/**
 * The `ask_user` tool input (SPEC §2) and every rule of it: parsing trims strings, drops blank
 * descriptions, cuts headers to 12 grapheme clusters, sets `multiSelect`, defaults and clamps
 * `timeoutSeconds`, and refuses everything else with a message a model can act on — all problems of
 * one input at once. Its input side is the model-facing JSON Schema (`askUserTool`); its output is a
 * {@link Prompt}. `normalizeAskUserInput` wraps it into `InvalidAskUserInputError`.
 *
 * @example
 * const parsed = askUserInputSchema.safeParse(raw); // parsed.data is a Prompt when parsed.success
 */
export const askUserInputSchema = strictFields({ questions, timeoutSeconds }, "The input");

/** Raw tool input as the model sends it (the schema's input side). */
export type AskUserInput = z.input<typeof askUserInputSchema>;

/** A normalised prompt: the input's shape with every field normalised and `timeoutSeconds` always set. */
export type Prompt = z.output<typeof askUserInputSchema>;

/** A normalised question: every field trimmed, header cut to 12 graphemes, `multiSelect` always set. */
export type PromptQuestion = Prompt["questions"][number];

/** A normalised option: label trimmed, description present only when not blank. */
export type PromptOption = PromptQuestion["options"][number];
