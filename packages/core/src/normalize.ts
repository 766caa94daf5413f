import { type InputIssue, InvalidAskUserInputError } from "./errors.ts";
import {
  LIMITS,
  type Prompt,
  type PromptOption,
  type PromptQuestion,
  QUESTION_ID_PATTERN,
} from "./schema.ts";
import { compareKey, graphemeLength, truncateGraphemes } from "./text.ts";

const OTHER_LABELS = new Set(["other", "other…", "other...", "sonstiges", "sonstige", "andere"]);
/** Labels that read as the system's Skip (every catalogue's skip words): they would sit beside Skip. */
const SKIP_LABELS = new Set(["skip", "/skip", "überspringen", "/überspringen", "skip…", "skip..."]);

const QUESTION_KEYS = new Set(["id", "header", "question", "options", "multiSelect"]);
const OPTION_KEYS = new Set(["label", "description"]);
const INPUT_KEYS = new Set(["questions", "timeoutSeconds"]);

type Issues = InputIssue[];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

function unknownKeys(
  value: Record<string, unknown>,
  allowed: Set<string>,
  path: string,
  issues: Issues,
): void {
  for (const key of Object.keys(value)) {
    if (!allowed.has(key)) {
      issues.push({
        path: path ? `${path}.${key}` : key,
        message: `Unknown field "${key}". Allowed fields: ${[...allowed].join(", ")}.`,
      });
    }
  }
}

/** A required non-blank string, trimmed; `undefined` (with an issue) when it is not one. */
function text(value: unknown, path: string, what: string, issues: Issues): string | undefined {
  if (typeof value !== "string") {
    issues.push({
      path,
      message:
        value === undefined ? `${what} is required.` : `${what} must be a string, not ${describe(value)}.`,
    });
    return undefined;
  }
  const trimmed = value.trim();
  if (trimmed === "") {
    issues.push({ path, message: `${what} must not be blank.` });
    return undefined;
  }
  return trimmed;
}

function maxLength(value: string | undefined, max: number, path: string, what: string, issues: Issues): void {
  if (value !== undefined && graphemeLength(value) > max) {
    issues.push({ path, message: `${what} is ${graphemeLength(value)} characters long; at most ${max}.` });
  }
}

function normalizeOption(raw: unknown, path: string, issues: Issues): PromptOption | undefined {
  if (!isRecord(raw)) {
    issues.push({
      path,
      message: `Each option must be an object { label, description? }, not ${describe(raw)}.`,
    });
    return undefined;
  }
  unknownKeys(raw, OPTION_KEYS, path, issues);
  const label = text(raw.label, `${path}.label`, "The option label", issues);
  maxLength(label, LIMITS.labelMaxLength, `${path}.label`, "The option label", issues);
  if (label !== undefined && OTHER_LABELS.has(compareKey(label))) {
    issues.push({
      path: `${path}.label`,
      message: `Remove the "${label}" option: a free-text "Other" answer is always added by the system.`,
    });
  } else if (label !== undefined && SKIP_LABELS.has(compareKey(label))) {
    issues.push({
      path: `${path}.label`,
      message: `Rename the "${label}" option (e.g. "Skip this step"): a "Skip" that declines the whole prompt is always added by the system, and two "Skip" buttons would read the same.`,
    });
  }
  let description: string | undefined;
  if (raw.description !== undefined) {
    if (typeof raw.description !== "string") {
      issues.push({
        path: `${path}.description`,
        message: `The description must be a string, not ${describe(raw.description)}.`,
      });
    } else if (raw.description.trim() !== "") {
      description = raw.description.trim();
      maxLength(description, LIMITS.descriptionMaxLength, `${path}.description`, "The description", issues);
    }
  }
  if (label === undefined) return undefined;
  return description === undefined ? { label } : { label, description };
}

function normalizeOptions(raw: unknown, path: string, issues: Issues): PromptOption[] {
  if (!Array.isArray(raw)) {
    issues.push({
      path,
      message:
        raw === undefined
          ? "options is required: give 2-4 options."
          : `options must be an array of 2-4 options, not ${describe(raw)}.`,
    });
    return [];
  }
  if (raw.length < LIMITS.optionsMin || raw.length > LIMITS.optionsMax) {
    issues.push({
      path,
      message: `Give 2-4 options, not ${raw.length}${raw.length > LIMITS.optionsMax ? "; ask about the most likely ones" : ""}.`,
    });
  }
  const options: PromptOption[] = [];
  const seen = new Map<string, number>();
  raw.forEach((item, index) => {
    const option = normalizeOption(item, `${path}[${index}]`, issues);
    if (!option) return;
    const key = compareKey(option.label);
    const first = seen.get(key);
    if (first !== undefined) {
      issues.push({
        path: `${path}[${index}].label`,
        message: `Duplicate label "${option.label}": it reads the same as option ${first + 1}. Labels must differ.`,
      });
    } else {
      seen.set(key, index);
    }
    options.push(option);
  });
  return options;
}

function normalizeQuestion(raw: unknown, path: string, issues: Issues): PromptQuestion | undefined {
  if (!isRecord(raw)) {
    issues.push({
      path,
      message: `Each question must be an object { id, header, question, options, multiSelect? }, not ${describe(raw)}.`,
    });
    return undefined;
  }
  unknownKeys(raw, QUESTION_KEYS, path, issues);
  const id = text(raw.id, `${path}.id`, "The id", issues);
  if (id !== undefined && (!QUESTION_ID_PATTERN.test(id) || id.length > LIMITS.idMaxLength)) {
    issues.push({
      path: `${path}.id`,
      message: `The id "${id}" must be snake_case (a-z, 0-9, _; starting with a letter), at most 64 characters, e.g. "deploy_target".`,
    });
  }
  const header = text(raw.header, `${path}.header`, "The header", issues);
  const question = text(raw.question, `${path}.question`, "The question", issues);
  maxLength(question, LIMITS.questionMaxLength, `${path}.question`, "The question", issues);
  const options = normalizeOptions(raw.options, `${path}.options`, issues);
  if (raw.multiSelect !== undefined && typeof raw.multiSelect !== "boolean") {
    issues.push({
      path: `${path}.multiSelect`,
      message: `multiSelect must be true or false, not ${describe(raw.multiSelect)}.`,
    });
  }
  if (id === undefined || header === undefined || question === undefined) return undefined;
  return {
    id,
    header: truncateGraphemes(header, LIMITS.headerMaxGraphemes).trim(),
    question,
    options,
    multiSelect: raw.multiSelect === true,
  };
}

function normalizeTimeout(raw: unknown, issues: Issues): number {
  if (raw === undefined) return LIMITS.timeoutDefaultSeconds;
  if (typeof raw !== "number" || !Number.isInteger(raw)) {
    issues.push({
      path: "timeoutSeconds",
      message: `timeoutSeconds must be a whole number of seconds (30-3600), not ${typeof raw === "number" ? String(raw) : describe(raw)}.`,
    });
    return LIMITS.timeoutDefaultSeconds;
  }
  return Math.min(LIMITS.timeoutMaxSeconds, Math.max(LIMITS.timeoutMinSeconds, raw));
}

/**
 * Validates raw `ask_user` input and returns the normalised prompt (SPEC §2): strings trimmed, blank
 * descriptions dropped, headers cut to 12 grapheme clusters, `multiSelect` a boolean, `timeoutSeconds`
 * set (default 900, clamped to 30..3600).
 *
 * @throws InvalidAskUserInputError listing every problem with its path.
 * @example
 * const prompt = normalizeAskUserInput({
 *   questions: [{ id: "deploy_target", header: "Deploy", question: "Where should I deploy?",
 *     options: [{ label: "Staging (Recommended)" }, { label: "Production" }] }],
 * });
 */
export function normalizeAskUserInput(raw: unknown): Prompt {
  const issues: Issues = [];
  if (!isRecord(raw)) {
    throw new InvalidAskUserInputError([
      {
        path: "",
        message: `The input must be an object { questions, timeoutSeconds? }, not ${describe(raw)}.`,
      },
    ]);
  }
  unknownKeys(raw, INPUT_KEYS, "", issues);
  const questions: PromptQuestion[] = [];
  if (!Array.isArray(raw.questions)) {
    issues.push({
      path: "questions",
      message:
        raw.questions === undefined
          ? "questions is required: give 1-3 questions."
          : `questions must be an array of 1-3 questions, not ${describe(raw.questions)}.`,
    });
  } else {
    if (raw.questions.length < LIMITS.questionsMin || raw.questions.length > LIMITS.questionsMax) {
      issues.push({
        path: "questions",
        message: `Ask 1-3 questions, not ${raw.questions.length}${raw.questions.length > LIMITS.questionsMax ? "; keep only the decisions that block you" : ""}.`,
      });
    }
    const ids = new Map<string, number>();
    raw.questions.forEach((item, index) => {
      const question = normalizeQuestion(item, `questions[${index}]`, issues);
      if (!question) return;
      const first = ids.get(question.id);
      if (first !== undefined) {
        issues.push({
          path: `questions[${index}].id`,
          message: `Duplicate id "${question.id}" (also questions[${first}]): each question needs its own id.`,
        });
      } else {
        ids.set(question.id, index);
      }
      questions.push(question);
    });
  }
  const timeoutSeconds = normalizeTimeout(raw.timeoutSeconds, issues);
  if (issues.length > 0) throw new InvalidAskUserInputError(issues);
  return { questions, timeoutSeconds };
}
