/**
 * A message as plain text, the way a person sees it in Slack — for assertions and for screenshots in
 * docs: its blocks top to bottom (or its `text` when it has none), mrkdwn shown as Slack shows it
 * (`FakeSlack.display`: mentions as names, dates as their fallback, entities undone), buttons as
 * `[Send]`, radio buttons as `(•) Staging` / `( ) Production` and checkboxes as `[✓] EU` / `[ ] US`, one
 * option a line (as Slack lists them) with its description after ` — `, then the reactions.
 */
import { buttonText, initialSelection, optionsOf } from "./controls.ts";
import { isObject } from "./params.ts";
import type { FakeSlackMessage, SlackBlock } from "./types.ts";

type Display = (text: string) => string;

function textOf(value: unknown, display: Display): string {
  if (!isObject(value) || typeof value.text !== "string") return "";
  return value.type === "mrkdwn" ? display(value.text) : value.text;
}

/** A choice group, one option a line; `selected` says which are selected. */
function choiceLines(element: Record<string, unknown>, display: Display): string[] {
  const radio = element.type === "radio_buttons";
  const selected = initialSelection(element).map((o) => o.value);
  return optionsOf(element).map((option) => {
    const on = selected.includes(option.value);
    const mark = radio ? (on ? "(•)" : "( )") : on ? "[✓]" : "[ ]";
    const description = textOf(option.description, display);
    return `${mark} ${textOf(option.text, display)}${description ? ` — ${description}` : ""}`;
  });
}

/** Interactive elements: choice groups a line per option, buttons side by side on one line. */
function elementLines(elements: unknown[], display: Display): string[] {
  const lines: string[] = [];
  let row: string[] = [];
  const flush = () => {
    if (row.length > 0) lines.push(row.join("  "));
    row = [];
  };
  for (const element of elements) {
    if (!isObject(element)) continue;
    if (element.type === "button") {
      row.push(`[${buttonText(element)}]`);
    } else if (element.type === "radio_buttons" || element.type === "checkboxes") {
      flush();
      lines.push(...choiceLines(element, display));
    } else {
      flush();
      lines.push(`<${String(element.type)}>`);
    }
  }
  flush();
  return lines;
}

function blockLines(block: SlackBlock, display: Display): string[] {
  switch (block.type) {
    case "section": {
      const lines = textOf(block.text, display).split("\n");
      if (Array.isArray(block.fields)) lines.push(...block.fields.map((f) => textOf(f, display)));
      if (block.accessory !== undefined) lines.push(...elementLines([block.accessory], display));
      return lines;
    }
    case "context": {
      const elements = Array.isArray(block.elements) ? block.elements : [];
      return [elements.map((e) => (isObject(e) && e.type === "image" ? "🖼" : textOf(e, display))).join("  ")];
    }
    case "actions":
      return elementLines(Array.isArray(block.elements) ? block.elements : [], display);
    case "header":
      return [textOf(block.text, display)];
    case "divider":
      return ["———"];
    default:
      return [`<${String(block.type)}>`];
  }
}

/** The message as a person sees it: blocks (or its text), then `:name: count` per reaction. */
export function messageText(message: FakeSlackMessage, display: Display): string {
  const lines =
    message.blocks.length === 0
      ? display(message.text).split("\n")
      : message.blocks.flatMap((block) => blockLines(block, display));
  const reactions = (message.reactions ?? []).map((r) => `:${r.name}: ${r.count}`);
  if (reactions.length > 0) lines.push(reactions.join("  "));
  return lines.join("\n");
}
