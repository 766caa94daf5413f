/** Checks modals (Other… text inputs) the way Discord does, as 50035 form errors. */
import { type FieldPath, FormErrors } from "./errors.ts";
import {
  CUSTOM_ID_MAX_CHARS,
  CUSTOM_ID_MIN_CHARS,
  MODAL_COMPONENTS_MAX,
  MODAL_COMPONENTS_MIN,
  MODAL_TITLE_MAX_CHARS,
  TEXT_INPUT_LABEL_MAX_CHARS,
  TEXT_INPUT_PLACEHOLDER_MAX_CHARS,
  TEXT_INPUT_VALUE_MAX_CHARS,
} from "./limits.ts";
import type { DcComponent, DcModal } from "./types.ts";
import { customId, isObject, LABEL, ROW, TEXT_DISPLAY, TEXT_INPUT } from "./validate.ts";

function textInput(
  errors: FormErrors,
  path: FieldPath,
  c: Record<string, unknown>,
  seen: Set<string>,
  legacy: boolean,
) {
  customId(errors, path, c.custom_id, seen);
  if (c.style !== 1 && c.style !== 2)
    errors.add([...path, "style"], "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.");
  if (legacy || c.label !== undefined)
    errors.length([...path, "label"], c.label, 1, TEXT_INPUT_LABEL_MAX_CHARS);
  if (c.placeholder !== undefined)
    errors.length([...path, "placeholder"], c.placeholder, 0, TEXT_INPUT_PLACEHOLDER_MAX_CHARS);
  if (c.value !== undefined) errors.length([...path, "value"], c.value, 0, TEXT_INPUT_VALUE_MAX_CHARS);
  for (const [field, min] of [
    ["min_length", 0],
    ["max_length", 1],
  ] as const) {
    const n = c[field];
    if (n === undefined) continue;
    if (typeof n !== "number" || !Number.isInteger(n))
      errors.add([...path, field], "NUMBER_TYPE_COERCE", "Value is not int.");
    else if (n < min)
      errors.add([...path, field], "NUMBER_TYPE_MIN", `int value should be greater than or equal to ${min}.`);
    else if (n > TEXT_INPUT_VALUE_MAX_CHARS)
      errors.add(
        [...path, field],
        "NUMBER_TYPE_MAX",
        `int value should be less than or equal to ${TEXT_INPUT_VALUE_MAX_CHARS}.`,
      );
  }
}

/** Reads and checks a modal (interaction response type 9): title 1–45, 1–5 components, text inputs. */
export function readModal(data: unknown): DcModal {
  const errors = new FormErrors();
  const source = isObject(data) ? data : {};
  errors.length(["data", "title"], source.title, 1, MODAL_TITLE_MAX_CHARS);
  errors.length(["data", "custom_id"], source.custom_id, CUSTOM_ID_MIN_CHARS, CUSTOM_ID_MAX_CHARS);
  const components = Array.isArray(source.components) ? source.components : [];
  if (components.length < MODAL_COMPONENTS_MIN || components.length > MODAL_COMPONENTS_MAX) {
    errors.add(
      ["data", "components"],
      "BASE_TYPE_BAD_LENGTH",
      `Must be between ${MODAL_COMPONENTS_MIN} and ${MODAL_COMPONENTS_MAX} in length.`,
    );
  }
  const seen = new Set<string>();
  components.forEach((top: unknown, i) => {
    const path: FieldPath = ["data", "components", i];
    if (isObject(top) && top.type === ROW && Array.isArray(top.components) && top.components.length === 1) {
      const [child] = top.components as unknown[];
      if (isObject(child) && child.type === TEXT_INPUT)
        textInput(errors, [...path, "components", 0], child, seen, true);
      else
        errors.add(
          [...path, "components", 0, "type"],
          "UNION_TYPE_CHOICES",
          'Value of field "type" must be one of (4,).',
        );
    } else if (isObject(top) && top.type === LABEL && isObject(top.component)) {
      errors.length([...path, "label"], top.label, 1, TEXT_INPUT_LABEL_MAX_CHARS);
      if (top.component.type === TEXT_INPUT)
        textInput(errors, [...path, "component"], top.component, seen, false);
    } else if (!(isObject(top) && top.type === TEXT_DISPLAY)) {
      errors.add([...path], "UNION_TYPE_CHOICES", 'Value of field "type" must be one of (1, 10, 18).');
    }
  });
  errors.throwIfAny();
  return {
    title: String(source.title),
    custom_id: String(source.custom_id),
    components: structuredClone(components) as DcComponent[],
  };
}

/** The text inputs of a modal, with the label a user sees, in order. */
export function modalInputs(modal: DcModal): Array<{ label: string; input: DcComponent }> {
  const out: Array<{ label: string; input: DcComponent }> = [];
  for (const top of modal.components) {
    if (top.type === ROW) {
      const input = top.components?.[0];
      if (input?.type === TEXT_INPUT) out.push({ label: String(input.label ?? ""), input });
    } else if (top.type === LABEL && top.component?.type === TEXT_INPUT) {
      out.push({ label: String(top.label ?? ""), input: top.component });
    }
  }
  return out;
}
