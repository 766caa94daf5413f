import { z } from "zod";

/** Limits of the tool input (SPEC §2). */
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

/** One option of a question, as the model writes it. */
export const askUserOptionSchema = z.strictObject({
  label: z
    .string()
    .max(LIMITS.labelMaxLength)
    .describe("The answer value returned to you. The first (recommended) option ends with ' (Recommended)'."),
  description: z.string().optional().describe("Optional: what choosing this option means, one short line."),
});

/** One question, as the model writes it. */
export const askUserQuestionSchema = z.strictObject({
  id: z
    .string()
    .regex(QUESTION_ID_PATTERN)
    .max(LIMITS.idMaxLength)
    .describe("Unique snake_case key of this question's answer in the result, e.g. deploy_target."),
  header: z.string().describe("Very short label shown above the question (cut to 12 characters)."),
  question: z.string().describe("The question, one complete sentence."),
  options: z
    .array(askUserOptionSchema)
    .min(LIMITS.optionsMin)
    .max(LIMITS.optionsMax)
    .describe(
      "2-4 choices, recommended first. Never add an 'Other' option: free text is always offered. Never label an option 'Skip': Skip is always offered.",
    ),
  multiSelect: z.boolean().optional().describe("true only when several options may be chosen together."),
});

/** The model-facing `ask_user` input (SPEC §2). Use `normalizeAskUserInput` to validate and normalise. */
export const askUserInputSchema = z.strictObject({
  questions: z
    .array(askUserQuestionSchema)
    .min(LIMITS.questionsMin)
    .max(LIMITS.questionsMax)
    .describe("1-3 questions; prefer exactly one."),
  timeoutSeconds: z
    .number()
    .int()
    .optional()
    .describe("How long to wait for an answer, in seconds. Default 900; values are clamped to 30..3600."),
});

/** Raw tool input as the model sends it. */
export type AskUserInput = z.infer<typeof askUserInputSchema>;

/** A normalised option: label trimmed, description present only when not blank. */
export interface PromptOption {
  label: string;
  description?: string;
}

/** A normalised question: every field trimmed, header cut to 12 graphemes, `multiSelect` always set. */
export interface PromptQuestion {
  id: string;
  header: string;
  question: string;
  options: PromptOption[];
  multiSelect: boolean;
}

/** A normalised prompt: the input's shape with every field normalised and `timeoutSeconds` always set. */
export interface Prompt {
  questions: PromptQuestion[];
  timeoutSeconds: number;
}
