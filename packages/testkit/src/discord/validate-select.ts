/** Checks a string select (component type 3) the way Discord does, as 50035 form errors. */
import type { FieldPath, FormErrors } from "./errors.ts";
import {
  SELECT_MAX_VALUES_MAX,
  SELECT_MAX_VALUES_MIN,
  SELECT_MIN_VALUES_MAX,
  SELECT_OPTION_DESCRIPTION_MAX_CHARS,
  SELECT_OPTION_LABEL_MAX_CHARS,
  SELECT_OPTION_VALUE_MAX_CHARS,
  SELECT_OPTIONS_MAX,
  SELECT_OPTIONS_MIN,
  SELECT_PLACEHOLDER_MAX_CHARS,
} from "./limits.ts";

/** The component type of a string select. */
export const STRING_SELECT = 3;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function boundedInt(errors: FormErrors, path: FieldPath, value: unknown, min: number, max: number): void {
  if (value === undefined) return;
  if (typeof value !== "number" || !Number.isInteger(value))
    errors.add(path, "NUMBER_TYPE_COERCE", `Value "${String(value)}" is not int.`);
  else if (value < min)
    errors.add(path, "NUMBER_TYPE_MIN", `int value should be greater than or equal to ${min}.`);
  else if (value > max)
    errors.add(path, "NUMBER_TYPE_MAX", `int value should be less than or equal to ${max}.`);
}

function option(errors: FormErrors, path: FieldPath, value: unknown): void {
  if (!isObject(value)) {
    errors.add(path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType");
    return;
  }
  errors.length([...path, "label"], value.label, 1, SELECT_OPTION_LABEL_MAX_CHARS);
  errors.length([...path, "value"], value.value, 1, SELECT_OPTION_VALUE_MAX_CHARS);
  if (value.description !== undefined && value.description !== null)
    errors.length([...path, "description"], value.description, 0, SELECT_OPTION_DESCRIPTION_MAX_CHARS);
  if (value.default !== undefined && value.default !== null && typeof value.default !== "boolean")
    errors.add([...path, "default"], "BASE_TYPE_BOOLEAN", "Must be either true or false.");
}

/**
 * The fields of a string select beyond its `custom_id`: 1–25 options (label and value 1–100,
 * description ≤ 100), placeholder ≤ 150, `min_values` 0–25, `max_values` 1–25.
 */
export function checkStringSelect(errors: FormErrors, path: FieldPath, c: Record<string, unknown>): void {
  const options = c.options;
  if (!Array.isArray(options) || options.length < SELECT_OPTIONS_MIN || options.length > SELECT_OPTIONS_MAX) {
    errors.add(
      [...path, "options"],
      "BASE_TYPE_BAD_LENGTH",
      `Must be between ${SELECT_OPTIONS_MIN} and ${SELECT_OPTIONS_MAX} in length.`,
    );
  }
  if (Array.isArray(options)) {
    options.forEach((o: unknown, i) => {
      option(errors, [...path, "options", i], o);
    });
  }
  if (c.placeholder !== undefined && c.placeholder !== null)
    errors.length([...path, "placeholder"], c.placeholder, 0, SELECT_PLACEHOLDER_MAX_CHARS);
  boundedInt(errors, [...path, "min_values"], c.min_values, 0, SELECT_MIN_VALUES_MAX);
  boundedInt(errors, [...path, "max_values"], c.max_values, SELECT_MAX_VALUES_MIN, SELECT_MAX_VALUES_MAX);
}
