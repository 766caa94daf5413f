/**
 * The building blocks of the zod schemas (`askUserInputSchema`, the answers check): fields with
 * messages a model can act on, grapheme-counted lengths, and the rules over a list (counts, uniqueness)
 * that run even when some items are malformed, so that one parse lists every problem.
 */
import { z } from "zod";
import { graphemeLength } from "../prompt/text.ts";

/** How a value reads in a message: `null`, `an array`, `an object`, `a number`, `undefined`. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/**
 * A required string, trimmed, that must not be blank: "The id is required.", "The id must be a string,
 * not a number.", "The id must not be blank." (`what` starts the sentence).
 */
export function requiredText(what: string) {
  return z
    .string({
      error: (issue) =>
        issue.input === undefined
          ? `${what} is required.`
          : `${what} must be a string, not ${describeValue(issue.input)}.`,
    })
    .trim()
    .min(1, { error: `${what} must not be blank.` });
}

/**
 * At most `max` user-perceived characters (grapheme clusters: an emoji or an accented letter is one),
 * the way every length of the tool input is counted.
 */
export function maxGraphemes(max: number, what: string) {
  return z.refine<string>((text) => graphemeLength(text) <= max, {
    error: (issue) =>
      `${what} is ${graphemeLength(issue.input as string)} characters long; at most ${max} (an emoji or an accented letter counts as one).`,
  });
}

/**
 * A strict object: unknown keys are issues (`Allowed fields: …`, one per key once mapped by
 * `toInputIssues`), and a value that is not an object reads "`what` must be an object { a, b? }, not …".
 */
export function strictFields<Shape extends z.ZodRawShape>(shape: Shape, what: string) {
  const keys = Object.keys(shape);
  const outline = keys.map((key) => (shape[key]?._zod.optin ? `${key}?` : key)).join(", ");
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `Allowed fields: ${keys.join(", ")}.`
        : `${what} must be an object { ${outline} }, not ${describeValue(issue.input)}.`,
  });
}

function isArrayPayload(payload: z.core.ParsePayload): boolean {
  return Array.isArray(payload.value);
}

/**
 * Between `min` and `max` items, checked even when some items are malformed; `minItems` / `maxItems`
 * go into the JSON Schema from the same numbers.
 */
export function itemCount<Schema extends z.ZodArray>(
  schema: Schema,
  min: number,
  max: number,
  message: (count: number) => string,
): Schema {
  const rule = z.superRefine<unknown[]>(
    (items, ctx) => {
      if (items.length < min || items.length > max) {
        ctx.addIssue({ code: "custom", input: items, message: message(items.length) });
      }
    },
    { when: isArrayPayload },
  );
  return schema.check(rule).meta({ minItems: min, maxItems: max });
}

/** The trimmed, non-blank string at `item[field]`, or `undefined` (the item has another issue then). */
function textField(item: unknown, field: string): string | undefined {
  if (typeof item !== "object" || item === null) return undefined;
  const value = (item as Record<string, unknown>)[field];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/**
 * Items whose `field` reads the same (by `key`) as an earlier item's are refused at
 * `[index, field]` with `message(value, firstIndex)`. Checked even when some items are malformed.
 */
export function uniqueField(
  field: string,
  key: (value: string) => string,
  message: (value: string, firstIndex: number) => string,
) {
  return z.superRefine<unknown[]>(
    (items, ctx) => {
      const seen = new Map<string, number>();
      items.forEach((item, index) => {
        const value = textField(item, field);
        if (value === undefined) return;
        const first = seen.get(key(value));
        if (first === undefined) seen.set(key(value), index);
        else
          ctx.addIssue({
            code: "custom",
            input: value,
            path: [index, field],
            message: message(value, first),
          });
      });
    },
    { when: isArrayPayload },
  );
}
