/**
 * Validation of the choice groups, `radio_buttons` and `checkboxes` (in actions blocks, section
 * accessories and input blocks): 1–10 option objects whose `text` (plain_text or mrkdwn) and plain_text
 * `description` are at most 75 characters and whose `value` is at most 75; `initial_option` (radio
 * buttons) and `initial_options` (checkboxes, non-empty) must each exactly match one of the `options`.
 */
import { at, type Problems, textObject, tooLong } from "./block-checks.ts";
import {
  CHOICE_OPTIONS_MAX,
  OPTION_DESCRIPTION_MAX_CHARS,
  OPTION_TEXT_MAX_CHARS,
  OPTION_VALUE_MAX_CHARS,
} from "./limits.ts";
import { isObject } from "./params.ts";

/** JSON equality regardless of key order (how Slack compares an initial option with the options). */
function sameJson(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]))
    );
  }
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => sameJson(a[key], b[key]));
  }
  return a === b;
}

function optionObject(problems: Problems, value: unknown, path: string): void {
  if (!isObject(value)) {
    problems.push(`must provide an object ${at(path)}`);
    return;
  }
  textObject(problems, value.text, `${path}/text`, OPTION_TEXT_MAX_CHARS, false);
  if (typeof value.value !== "string" || value.value.length === 0) {
    problems.push(`must provide a non-empty string ${at(`${path}/value`)}`);
  } else {
    tooLong(problems, value.value, OPTION_VALUE_MAX_CHARS, `${path}/value`);
  }
  if (value.description !== undefined) {
    textObject(problems, value.description, `${path}/description`, OPTION_DESCRIPTION_MAX_CHARS, true);
  }
}

/** Every problem with a `radio_buttons` or `checkboxes` element at `path`. */
export function checkChoices(problems: Problems, element: Record<string, unknown>, path: string): void {
  const options = element.options;
  if (!Array.isArray(options) || options.length === 0) {
    problems.push(`must provide a non-empty array ${at(`${path}/options`)}`);
    return;
  }
  if (options.length > CHOICE_OPTIONS_MAX) {
    problems.push(`must be less than ${CHOICE_OPTIONS_MAX + 1} items ${at(`${path}/options`)}`);
  }
  options.forEach((option, i) => {
    optionObject(problems, option, `${path}/options/${i}`);
  });
  const known = (option: unknown) => options.some((candidate) => sameJson(candidate, option));
  if (element.type === "radio_buttons" && element.initial_option !== undefined) {
    if (!known(element.initial_option)) {
      problems.push(`must match one of the options ${at(`${path}/initial_option`)}`);
    }
  }
  if (element.type === "checkboxes" && element.initial_options !== undefined) {
    const initial = element.initial_options;
    if (!Array.isArray(initial) || initial.length === 0) {
      problems.push(`must provide a non-empty array ${at(`${path}/initial_options`)}`);
      return;
    }
    initial.forEach((option, i) => {
      if (!known(option))
        problems.push(`must match one of the options ${at(`${path}/initial_options/${i}`)}`);
    });
  }
}
