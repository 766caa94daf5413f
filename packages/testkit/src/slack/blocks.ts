/**
 * Block Kit validation: the limits Bolt and the WebClient do not check. Every problem is reported at
 * once, in Slack's wording: `must be less than 76 characters [json-pointer:/blocks/2/elements/0/text/text]`.
 */

import { at, optString, type Problems, textObject, tooLong } from "./block-checks.ts";
import { checkChoices } from "./choices.ts";
import {
  ACTION_ID_MAX_CHARS,
  ACTIONS_ELEMENTS_MAX,
  BLOCK_ID_MAX_CHARS,
  BUTTON_TEXT_MAX_CHARS,
  BUTTON_URL_MAX_CHARS,
  BUTTON_VALUE_MAX_CHARS,
  CALLBACK_ID_MAX_CHARS,
  CONTEXT_ELEMENTS_MAX,
  CONTEXT_TEXT_MAX_CHARS,
  HEADER_TEXT_MAX_CHARS,
  INPUT_HINT_MAX_CHARS,
  INPUT_LABEL_MAX_CHARS,
  MESSAGE_BLOCKS_MAX,
  MODAL_BLOCKS_MAX,
  MODAL_BUTTON_MAX_CHARS,
  MODAL_TITLE_MAX_CHARS,
  PLACEHOLDER_MAX_CHARS,
  PLAIN_TEXT_INPUT_MAX_CHARS,
  PRIVATE_METADATA_MAX_CHARS,
  SECTION_FIELD_MAX_CHARS,
  SECTION_FIELDS_MAX,
  SECTION_TEXT_MAX_CHARS,
} from "./limits.ts";
import { isObject } from "./params.ts";

/** Where blocks live: messages allow 50 and no input blocks; modals allow 100. */
export type Surface = "message" | "modal";

function actionId(
  problems: Problems,
  element: Record<string, unknown>,
  path: string,
  seen: Set<string>,
): void {
  const id = element.action_id;
  if (id === undefined) return;
  if (typeof id !== "string" || id.length === 0) {
    problems.push(`must be a non-empty string ${at(`${path}/action_id`)}`);
    return;
  }
  tooLong(problems, id, ACTION_ID_MAX_CHARS, `${path}/action_id`);
  if (seen.has(id)) problems.push(`duplicate action_id "${id}" ${at(`${path}/action_id`)}`);
  seen.add(id);
}

function button(problems: Problems, element: Record<string, unknown>, path: string): void {
  textObject(problems, element.text, `${path}/text`, BUTTON_TEXT_MAX_CHARS, true);
  optString(problems, element.value, BUTTON_VALUE_MAX_CHARS, `${path}/value`);
  optString(problems, element.url, BUTTON_URL_MAX_CHARS, `${path}/url`);
  if (element.style !== undefined && element.style !== "primary" && element.style !== "danger") {
    problems.push(`must be a valid enum value ${at(`${path}/style`)}`);
  }
}

/** An interactive element of an actions block or a section accessory. */
function element(problems: Problems, value: unknown, path: string, seen: Set<string>): void {
  if (!isObject(value) || typeof value.type !== "string") {
    problems.push(`must provide an object with a type ${at(path)}`);
    return;
  }
  actionId(problems, value, path, seen);
  if (value.type === "button") button(problems, value, path);
  if (value.type === "radio_buttons" || value.type === "checkboxes") checkChoices(problems, value, path);
  if (value.type === "plain_text_input")
    problems.push(`plain_text_input is only allowed in input blocks ${at(path)}`);
}

function plainTextInput(problems: Problems, value: Record<string, unknown>, path: string): void {
  const bound = (name: string, min: number) => {
    const n = value[name];
    if (n === undefined) return undefined;
    if (typeof n !== "number" || !Number.isInteger(n) || n < min || n > PLAIN_TEXT_INPUT_MAX_CHARS) {
      problems.push(
        `must be an integer from ${min} to ${PLAIN_TEXT_INPUT_MAX_CHARS} ${at(`${path}/${name}`)}`,
      );
      return undefined;
    }
    return n;
  };
  const max = bound("max_length", 1) ?? PLAIN_TEXT_INPUT_MAX_CHARS;
  const min = bound("min_length", 0) ?? 0;
  if (min > max) problems.push(`min_length must not exceed max_length ${at(`${path}/min_length`)}`);
  optString(problems, value.initial_value, max, `${path}/initial_value`);
  if (value.placeholder !== undefined) {
    textObject(problems, value.placeholder, `${path}/placeholder`, PLACEHOLDER_MAX_CHARS, true);
  }
  if (value.multiline !== undefined && typeof value.multiline !== "boolean") {
    problems.push(`must be a boolean ${at(`${path}/multiline`)}`);
  }
}

function block(problems: Problems, value: unknown, path: string, surface: Surface, ids: Set<string>): void {
  if (!isObject(value) || typeof value.type !== "string") {
    problems.push(`must provide an object with a type ${at(path)}`);
    return;
  }
  if (value.block_id !== undefined) {
    if (typeof value.block_id !== "string" || value.block_id.length === 0) {
      problems.push(`must be a non-empty string ${at(`${path}/block_id`)}`);
    } else {
      tooLong(problems, value.block_id, BLOCK_ID_MAX_CHARS, `${path}/block_id`);
      if (ids.has(value.block_id))
        problems.push(`duplicate block_id "${value.block_id}" ${at(`${path}/block_id`)}`);
      ids.add(value.block_id);
    }
  }
  const actionIds = new Set<string>();
  switch (value.type) {
    case "section": {
      if (value.text === undefined && value.fields === undefined) {
        problems.push(`must provide text or fields ${at(path)}`);
      }
      if (value.text !== undefined)
        textObject(problems, value.text, `${path}/text`, SECTION_TEXT_MAX_CHARS, false);
      if (value.fields !== undefined) {
        if (!Array.isArray(value.fields) || value.fields.length > SECTION_FIELDS_MAX) {
          problems.push(`must be an array of at most ${SECTION_FIELDS_MAX} items ${at(`${path}/fields`)}`);
        } else {
          value.fields.forEach((field, i) => {
            textObject(problems, field, `${path}/fields/${i}`, SECTION_FIELD_MAX_CHARS, false);
          });
        }
      }
      if (value.accessory !== undefined) element(problems, value.accessory, `${path}/accessory`, actionIds);
      return;
    }
    case "context": {
      const elements = value.elements;
      if (!Array.isArray(elements) || elements.length === 0) {
        problems.push(`must provide a non-empty array ${at(`${path}/elements`)}`);
        return;
      }
      if (elements.length > CONTEXT_ELEMENTS_MAX) {
        problems.push(`must be less than ${CONTEXT_ELEMENTS_MAX + 1} items ${at(`${path}/elements`)}`);
      }
      elements.forEach((item, i) => {
        if (isObject(item) && item.type === "image") return;
        textObject(problems, item, `${path}/elements/${i}`, CONTEXT_TEXT_MAX_CHARS, false);
      });
      return;
    }
    case "actions": {
      const elements = value.elements;
      if (!Array.isArray(elements) || elements.length === 0) {
        problems.push(`must provide a non-empty array ${at(`${path}/elements`)}`);
        return;
      }
      if (elements.length > ACTIONS_ELEMENTS_MAX) {
        problems.push(`must be less than ${ACTIONS_ELEMENTS_MAX + 1} items ${at(`${path}/elements`)}`);
      }
      elements.forEach((item, i) => {
        element(problems, item, `${path}/elements/${i}`, actionIds);
      });
      return;
    }
    case "header":
      textObject(problems, value.text, `${path}/text`, HEADER_TEXT_MAX_CHARS, true);
      return;
    case "divider":
    case "rich_text":
    case "image":
      return;
    case "input": {
      if (surface !== "modal") {
        problems.push(`input blocks are only allowed in modals ${at(path)}`);
        return;
      }
      textObject(problems, value.label, `${path}/label`, INPUT_LABEL_MAX_CHARS, true);
      if (value.hint !== undefined)
        textObject(problems, value.hint, `${path}/hint`, INPUT_HINT_MAX_CHARS, true);
      const input = value.element;
      if (!isObject(input) || typeof input.type !== "string") {
        problems.push(`must provide an object with a type ${at(`${path}/element`)}`);
        return;
      }
      actionId(problems, input, `${path}/element`, actionIds);
      if (input.type === "plain_text_input") plainTextInput(problems, input, `${path}/element`);
      if (input.type === "radio_buttons" || input.type === "checkboxes")
        checkChoices(problems, input, `${path}/element`);
      return;
    }
    default:
      problems.push(`unsupported type "${value.type}" ${at(`${path}/type`)}`);
  }
}

/** Every problem with a `blocks` array on a surface; empty when it is valid. */
export function checkBlocks(blocks: unknown, surface: Surface, path = "/blocks"): string[] {
  const problems: Problems = [];
  if (!Array.isArray(blocks)) return [`must provide an array ${at(path)}`];
  const max = surface === "message" ? MESSAGE_BLOCKS_MAX : MODAL_BLOCKS_MAX;
  if (blocks.length > max) problems.push(`must be less than ${max + 1} items ${at(path)}`);
  const ids = new Set<string>();
  blocks.forEach((item, i) => {
    block(problems, item, `${path}/${i}`, surface, ids);
  });
  return problems;
}

/** Every problem with a modal view (`views.open`); empty when it is valid. */
export function checkView(view: unknown): string[] {
  if (!isObject(view)) return [`must provide an object ${at("/view")}`];
  const problems: Problems = [];
  if (view.type !== "modal") problems.push(`must be a valid enum value ${at("/view/type")}`);
  textObject(problems, view.title, "/view/title", MODAL_TITLE_MAX_CHARS, true);
  if (view.submit !== undefined)
    textObject(problems, view.submit, "/view/submit", MODAL_BUTTON_MAX_CHARS, true);
  if (view.close !== undefined) textObject(problems, view.close, "/view/close", MODAL_BUTTON_MAX_CHARS, true);
  optString(problems, view.private_metadata, PRIVATE_METADATA_MAX_CHARS, "/view/private_metadata");
  optString(problems, view.callback_id, CALLBACK_ID_MAX_CHARS, "/view/callback_id");
  optString(problems, view.external_id, CALLBACK_ID_MAX_CHARS, "/view/external_id");
  problems.push(...checkBlocks(view.blocks, "modal", "/view/blocks"));
  const hasInput = Array.isArray(view.blocks) && view.blocks.some((b) => isObject(b) && b.type === "input");
  if (hasInput && view.submit === undefined) {
    problems.push(`must provide submit when the view has input blocks ${at("/view/submit")}`);
  }
  return problems;
}
