/**
 * A message as text, the way a person sees it in a Telegram client, for tests and README screenshots:
 * the text (formatting gone, invisible characters left out), then one line per inline keyboard row with
 * each button in brackets (`[✓ EU]  [US]`), a force-reply's input field, and the bot's reaction.
 */
import { asInlineKeyboard } from "./markup.ts";
import type { StoredMessage } from "./state.ts";

/** Characters a client does not draw (the word joiner that keeps `@name` from being a mention). */
const INVISIBLE = /[\u2060\u200b]/g;

/**
 * Renders a stored message as text.
 *
 * @example
 * renderMessageText(stored) // "Regions\nWhich regions?\n…\n[✓ EU]\n[US]\n[Skip]  [Send]"
 */
export function renderMessageText(stored: StoredMessage): string {
  const lines = [stored.message.text.replace(INVISIBLE, "")];
  const keyboard = asInlineKeyboard(stored.markup);
  for (const row of keyboard?.inline_keyboard ?? []) {
    lines.push(row.map((button) => `[${button.text}]`).join("  "));
  }
  const markup = stored.markup as Record<string, unknown> | undefined;
  if (markup?.force_reply === true) {
    const placeholder =
      typeof markup.input_field_placeholder === "string" ? markup.input_field_placeholder : "";
    lines.push(`(reply field${placeholder ? `: ${placeholder}` : ""})`);
  }
  if (stored.reactions?.length) lines.push(`(reaction: ${stored.reactions.join(" ")})`);
  return lines.join("\n");
}
