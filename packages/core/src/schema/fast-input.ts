/**
 * A fast path for `askUserInputSchema`: the common, clearly valid tool input checked without zod (zod's
 * parse of it was ~6 % of a gateway create). It accepts only what the schema surely accepts and builds
 * exactly the `Prompt` the schema would build (same keys in the same order, same values); anything it is
 * not sure about — a wrong type, an unknown key, a count out of range, a duplicate, a reserved label, a
 * length near a limit — it declines, and the schema runs and words every issue as it always has.
 * `schema.ts` stays the one source of the rules: the limits and the id pattern come from it.
 */
import { compareKey, truncateGraphemes } from "../prompt/text.ts";
import { reservedKind } from "./reserved-labels.ts";
import {
  LIMITS,
  type Prompt,
  type PromptOption,
  type PromptQuestion,
  QUESTION_ID_PATTERN,
} from "./schema.ts";

const INPUT_FIELDS = new Set(["questions", "timeoutSeconds"]);
const QUESTION_FIELDS = new Set(["id", "header", "question", "options", "multiSelect"]);
const OPTION_FIELDS = new Set(["label", "description"]);

type Fields = Record<string, unknown>;

/** A plain object (an object literal or JSON) whose every enumerable key is one of `fields`. */
function withFields(value: unknown, fields: ReadonlySet<string>): value is Fields {
  if (typeof value !== "object" || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  for (const key in value) if (!fields.has(key)) return false;
  return true;
}

/** An array of `min`..`max` items. */
function itemsBetween(value: unknown, min: number, max: number): value is unknown[] {
  return Array.isArray(value) && value.length >= min && value.length <= max;
}

/**
 * `value` trimmed when it is a string of at most `max` UTF-16 units (so at most `max` grapheme clusters:
 * a cluster is one unit or more, and no counting is needed), else `undefined` (the schema decides).
 */
function shortText(value: unknown, max: number): string | undefined {
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  return text.length <= max ? text : undefined;
}

/** The options as the schema builds them (label, then a non-blank description), or `undefined`. */
function fastOptions(raw: unknown): PromptOption[] | undefined {
  if (!itemsBetween(raw, LIMITS.optionsMin, LIMITS.optionsMax)) return undefined;
  const options: PromptOption[] = [];
  const keys = new Set<string>();
  for (const item of raw) {
    if (!withFields(item, OPTION_FIELDS)) return undefined;
    const label = shortText(item.label, LIMITS.labelMaxLength);
    if (!label) return undefined;
    const key = compareKey(label); // the schema's own key: an authored "Other"/"Skip", a duplicate
    if (reservedKind(key) || keys.has(key)) return undefined;
    keys.add(key);
    if (item.description === undefined) {
      options.push({ label });
      continue;
    }
    const description = shortText(item.description, LIMITS.descriptionMaxLength);
    if (description === undefined) return undefined;
    options.push(description ? { label, description } : { label });
  }
  return options;
}

/** One question as the schema builds it (header cut to 12 graphemes, `multiSelect` set), or `undefined`. */
function fastQuestion(raw: unknown): PromptQuestion | undefined {
  if (!withFields(raw, QUESTION_FIELDS)) return undefined;
  const id = shortText(raw.id, LIMITS.idMaxLength);
  if (!id || !QUESTION_ID_PATTERN.test(id)) return undefined;
  if (typeof raw.header !== "string") return undefined;
  const trimmed = raw.header.trim();
  if (!trimmed) return undefined;
  // At most 12 units is at most 12 clusters: nothing to cut (and `trimmed` is trimmed already).
  const header =
    trimmed.length <= LIMITS.headerMaxGraphemes
      ? trimmed
      : truncateGraphemes(trimmed, LIMITS.headerMaxGraphemes).trim();
  const question = shortText(raw.question, LIMITS.questionMaxLength);
  if (!question) return undefined;
  const options = fastOptions(raw.options);
  if (options === undefined) return undefined;
  // Only a missing value takes the default: `null` is refused by the schema.
  const multiSelect = raw.multiSelect === undefined ? false : raw.multiSelect;
  if (typeof multiSelect !== "boolean") return undefined;
  return { id, header, question, options, multiSelect };
}

/**
 * The {@link Prompt} `askUserInputSchema` builds from `raw` when `raw` is clearly valid in the common
 * shape, or `undefined` when it is not sure — never a prompt the schema would refuse or build otherwise.
 *
 * @example
 * const prompt = fastNormalizeInput(raw) ?? askUserInputSchema.parse(raw);
 */
export function fastNormalizeInput(raw: unknown): Prompt | undefined {
  if (!withFields(raw, INPUT_FIELDS)) return undefined;
  if (!itemsBetween(raw.questions, LIMITS.questionsMin, LIMITS.questionsMax)) return undefined;
  const questions: PromptQuestion[] = [];
  const ids = new Set<string>();
  for (const item of raw.questions) {
    const question = fastQuestion(item);
    if (question === undefined || ids.has(question.id)) return undefined;
    ids.add(question.id);
    questions.push(question);
  }
  const given = raw.timeoutSeconds === undefined ? LIMITS.timeoutDefaultSeconds : raw.timeoutSeconds;
  if (typeof given !== "number" || !Number.isInteger(given)) return undefined;
  const timeoutSeconds = Math.min(LIMITS.timeoutMaxSeconds, Math.max(LIMITS.timeoutMinSeconds, given));
  return { questions, timeoutSeconds };
}
