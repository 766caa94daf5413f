/** What a fake user can operate on a message or modal: its buttons, and the values of its inputs. */
import { isObject } from "./params.ts";
import type { FakeSlackMessage, SlackBlock } from "./types.ts";

/** An interactive element on a message (a button, a choice group), with its block. */
export interface Control {
  block_id: string;
  element: Record<string, unknown>;
}

/** A button on a message, with its block. */
export type Button = Control;

/** The interactive elements of a message: in actions blocks and section accessories. */
function controls(message: FakeSlackMessage): Control[] {
  const out: Control[] = [];
  for (const block of message.blocks) {
    const blockId = typeof block.block_id === "string" ? block.block_id : "";
    const elements =
      block.type === "actions" && Array.isArray(block.elements) ? block.elements : [block.accessory];
    for (const element of elements) {
      if (isObject(element) && typeof element.type === "string") out.push({ block_id: blockId, element });
    }
  }
  return out;
}

/** The buttons of a message (in actions blocks and section accessories). */
export function buttons(message: FakeSlackMessage): Button[] {
  return controls(message).filter((c) => c.element.type === "button");
}

/** The radio button and checkbox groups of a message. */
export function choiceGroups(message: FakeSlackMessage): Control[] {
  return controls(message).filter(
    (c) => c.element.type === "radio_buttons" || c.element.type === "checkboxes",
  );
}

/** The options of a choice group. */
export function optionsOf(element: Record<string, unknown>): Record<string, unknown>[] {
  return Array.isArray(element.options) ? element.options.filter(isObject) : [];
}

/** What a choice group shows selected when it loads: its `initial_option` or `initial_options`. */
export function initialSelection(element: Record<string, unknown>): Record<string, unknown>[] {
  if (isObject(element.initial_option)) return [element.initial_option];
  return Array.isArray(element.initial_options) ? element.initial_options.filter(isObject) : [];
}

/** A button's label, or an option's text. */
export function buttonText(element: Record<string, unknown>): string {
  return isObject(element.text) && typeof element.text.text === "string" ? element.text.text : "";
}

/** A modal's `state.values` for a submission, checked as Slack's client checks them. */
export function inputValues(view: Record<string, unknown>, values: string | Record<string, string>) {
  const state: Record<string, Record<string, { type: string; value: string | null }>> = {};
  const blocks = Array.isArray(view.blocks) ? (view.blocks as SlackBlock[]) : [];
  const inputs = blocks.filter((b) => b.type === "input" && isObject(b.element));
  if (typeof values === "string" && inputs.length !== 1) {
    throw new Error(`fake Slack: the modal has ${inputs.length} inputs; pass values by action_id`);
  }
  for (const block of inputs) {
    const element = block.element as Record<string, unknown>;
    const actionId = String(element.action_id ?? "");
    const blockId = String(block.block_id ?? "");
    const value = typeof values === "string" ? values : (values[actionId] ?? "");
    if (value === "" && block.optional !== true) {
      throw new Error(
        `fake Slack: Slack's client would not submit: the required input "${actionId}" is empty`,
      );
    }
    if (typeof element.max_length === "number" && value.length > element.max_length) {
      throw new Error(`fake Slack: Slack's client would not submit: "${actionId}" is over max_length`);
    }
    state[blockId] = {
      ...state[blockId],
      [actionId]: { type: String(element.type), value: value === "" ? null : value },
    };
  }
  return state;
}
