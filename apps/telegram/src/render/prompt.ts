/**
 * Core's prompt view → a Telegram message (HTML text and inline keyboard), and plain text (summaries,
 * notices) as safe HTML. Pure. Agent text is data: HTML-escaped, its `@name` mentions defused with a word
 * joiner, so it can neither break the markup nor notify anyone; core's `fitView` keeps it within 4096
 * characters as Telegram counts them.
 */
import {
  buildPromptView,
  type ControlView,
  clipText,
  fitView,
  messagesFor,
  type PromptView,
  type PromptViewOptions,
  type QuestionRecord,
  type QuestionView,
  renderViewText,
} from "@ask-user/core/channel";
import type { InlineKeyboardButton, InlineKeyboardMarkup } from "grammy/types";
import {
  BUTTON_LABEL_MAX_CHARS,
  FORM_OPTIONS_MAX,
  FORM_STATUS_VALUE_MAX_CHARS,
  MESSAGE_TEXT_MAX_CHARS,
} from "../limits.ts";

/** A message for `sendMessage` with `parse_mode: "HTML"`. */
export interface RenderedMessage {
  html: string;
  replyMarkup?: InlineKeyboardMarkup;
}

const PICKED = "✓";

/** Breaks `@name` mentions with an invisible word joiner, so Telegram does not link or notify them. */
export function defuseMentions(text: string): string {
  return text.replace(/@(?=[\p{L}\p{N}_])/gu, "@\u2060");
}

/** Escapes the three characters Telegram's HTML parser reserves. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Plain text (a notice, a summary, a refusal) as safe HTML within `max`. */
export function renderPlain(text: string, max = MESSAGE_TEXT_MAX_CHARS): string {
  return escapeHtml(clipText(defuseMentions(text), max));
}

const fitsMessage = (text: string) => defuseMentions(text).length <= MESSAGE_TEXT_MAX_CHARS;

/** Core's view of `record` with Telegram's form limits ({@link FORM_OPTIONS_MAX}): buttons, a form, or text. */
export function promptView(record: QuestionRecord, options: PromptViewOptions = {}): PromptView {
  return buildPromptView(record, { ...options, forms: { maxOptions: FORM_OPTIONS_MAX } });
}

type Piece = { text: string; bold?: boolean };

/** Pieces as HTML (escaped, mentions defused) and as the plain text Telegram counts. */
function toHtml(pieces: Piece[]): { html: string; plain: string } {
  let html = "";
  let plain = "";
  for (const piece of pieces) {
    const visible = defuseMentions(piece.text);
    plain += visible;
    html += piece.bold ? `<b>${escapeHtml(visible)}</b>` : escapeHtml(visible);
  }
  return { html, plain };
}

function questionPieces(question: QuestionView): Piece[] {
  const options = question.options.map(({ index, label, description }) => ({
    text: `\n${index + 1}. ${label}${description ? ` — ${description}` : ""}`,
  }));
  return [{ text: question.header, bold: true }, { text: `\n${question.question}\n` }, ...options];
}

/** A form's draft under its question: a status line per question, or the one question's selection. */
function statusLines(view: PromptView): string[] {
  // Cut even when the ladder left them whole: a status line is a reminder, not the question shown.
  const cut = (text: string) => clipText(text, FORM_STATUS_VALUE_MAX_CHARS);
  if (view.questions.length === 1) {
    const [line] = view.status;
    return line?.answered ? [cut(messagesFor(view.locale).selected(line.values ?? ""))] : [];
  }
  const lines = view.status.map((line) => {
    const head = `${line.answered ? PICKED : "○"} ${line.number}) ${line.header}`;
    return line.answered ? `${head}: ${cut(line.values ?? "")}` : head;
  });
  return [lines.join("\n")];
}

function viewPieces(view: PromptView): Piece[] {
  const shown = view.questions[view.step.index] ?? view.questions[0];
  const pieces: Piece[] = view.audience ? [{ text: `${view.audience.line}\n\n` }] : [];
  if (view.step.line) pieces.push({ text: `${view.step.line}\n` });
  if (shown) pieces.push(...questionPieces(shown));
  if (view.layout === "buttons") return [...pieces, { text: `\n\n${view.expires.line}` }];
  const multi = messagesFor(view.locale).howToReplyMulti;
  // The multi-select rule only under a multi-select question.
  const hints = view.howToReply.filter((line) => line !== multi || shown?.multiSelect);
  for (const block of [...statusLines(view), [...hints, view.expires.line].join("\n")])
    pieces.push({ text: `\n\n${block}` });
  return pieces;
}

function button(control: ControlView, marked: boolean): InlineKeyboardButton {
  const text = marked && control.picked ? `${PICKED} ${control.label}` : control.label;
  return { text: clipText(text, BUTTON_LABEL_MAX_CHARS), callback_data: control.action };
}

/**
 * The inline keyboard of a view: a full-width button per option of the question shown, Other…, then
 * Skip; a form marks picks with ✓ and adds ‹ Back / Next › (left out at the ends: Telegram has no
 * disabled buttons) and Send. Labels are cut to {@link BUTTON_LABEL_MAX_CHARS}.
 */
export function renderKeyboard(view: PromptView): InlineKeyboardMarkup | undefined {
  const question = view.questions[view.step.index];
  if (view.layout === "text" || !question) return undefined;
  const form = view.layout === "form";
  const { back, next, skip, send } = view.controls;
  const rows = [...question.options, question.other].map((control) => [button(control, form)]);
  if (!form) return { inline_keyboard: [...rows, [button(skip, false)]] };
  const nav = [back, next].flatMap((control) => (control ? [button(control, false)] : []));
  if (nav.length > 0) rows.push(nav);
  rows.push([skip, ...(send ? [send] : [])].map((control) => button(control, false)));
  return { inline_keyboard: rows };
}

/**
 * The prompt message of a view, within 4096 characters (`text` layout: `given`, core's readable text, as
 * it is when it fits), e.g. `renderPrompt(promptView(record, { buttons: true }))`.
 */
export function renderPrompt(view: PromptView, given?: string): RenderedMessage {
  if (view.layout === "text") {
    if (given !== undefined && fitsMessage(given)) return { html: escapeHtml(defuseMentions(given)) };
    return { html: renderPlain(renderViewText(fitView(view, (v) => fitsMessage(renderViewText(v))))) };
  }
  const fitted = fitView(view, (v) => toHtml(viewPieces(v)).plain.length <= MESSAGE_TEXT_MAX_CHARS);
  const { html, plain } = toHtml(viewPieces(fitted));
  const replyMarkup = renderKeyboard(fitted);
  // The ladder's last step fits every prompt the schema allows; cut the plain text if it still did not.
  const text =
    plain.length <= MESSAGE_TEXT_MAX_CHARS ? html : escapeHtml(clipText(plain, MESSAGE_TEXT_MAX_CHARS));
  return replyMarkup ? { html: text, replyMarkup } : { html: text };
}
