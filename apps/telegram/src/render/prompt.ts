/**
 * Core's prompt view → a Telegram message (HTML text and inline keyboard), and plain text (summaries,
 * notices) as safe HTML. Pure: no I/O, no clock.
 *
 * Agent text is data: it is HTML-escaped and its `@name` mentions are defused with a word joiner, so it
 * can neither break the markup nor notify anyone. Everything is kept within 4096 characters by core's one
 * shortening ladder (`fitView`, measured here on the text Telegram counts); a prompt is never refused for
 * its length.
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

/** A message ready for `sendMessage` with `parse_mode: "HTML"`. */
export interface RenderedMessage {
  html: string;
  replyMarkup?: InlineKeyboardMarkup;
}

const WORD_JOINER = "\u2060";
/** The mark of a picked option (on its button) and of a question with an answer (in the status lines). */
const PICKED = "✓";
const OPEN = "○";

/** Breaks `@name` mentions with an invisible word joiner, so Telegram does not link or notify them. */
export function defuseMentions(text: string): string {
  return text.replace(/@(?=[\p{L}\p{N}_])/gu, `@${WORD_JOINER}`);
}

/** Escapes text for `parse_mode: "HTML"` (the three characters Telegram's HTML parser reserves). */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Plain text (a notice, a summary, a refusal) as safe HTML within the message limit. */
export function renderPlain(text: string, max = MESSAGE_TEXT_MAX_CHARS): string {
  return escapeHtml(clipText(defuseMentions(text), max));
}

/** True when text (mentions defused, as Telegram counts it) fits one message. */
const fitsMessage = (text: string) => defuseMentions(text).length <= MESSAGE_TEXT_MAX_CHARS;

/**
 * The view of `record` for Telegram: native buttons when core asks for them, a form (one question at a
 * time) when every question's options fit the keyboard's payloads ({@link FORM_OPTIONS_MAX}), else text.
 *
 * @example
 * const view = promptView(record, { buttons: true, forName: "@ada", replyToMessage: true });
 */
export function promptView(record: QuestionRecord, options: PromptViewOptions = {}): PromptView {
  return buildPromptView(record, { ...options, forms: { maxOptions: FORM_OPTIONS_MAX } });
}

/** One visible piece of a message; `bold` pieces are wrapped in `<b>`. */
interface Piece {
  text: string;
  bold?: boolean;
}

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

/** A question: its header in bold, the question, then the numbered options with descriptions. */
function questionPieces(question: QuestionView): Piece[] {
  const pieces: Piece[] = [{ text: question.header, bold: true }, { text: `\n${question.question}\n` }];
  for (const option of question.options) {
    const description = option.description ? ` — ${option.description}` : "";
    pieces.push({ text: `\n${option.index + 1}. ${option.label}${description}` });
  }
  return pieces;
}

/** A form's draft under its question: a status line per question, or the one question's selection. */
function statusLines(view: PromptView): string[] {
  const m = messagesFor(view.locale);
  const cut = (values: string | undefined) => clipText(values ?? "", FORM_STATUS_VALUE_MAX_CHARS);
  if (view.questions.length === 1) {
    const [line] = view.status;
    return line?.answered ? [clipText(m.selected(line.values ?? ""), FORM_STATUS_VALUE_MAX_CHARS)] : [];
  }
  return [
    view.status
      .map((line) => {
        const head = `${line.answered ? PICKED : OPEN} ${line.number}) ${line.header}`;
        return line.answered ? `${head}: ${cut(line.values)}` : head;
      })
      .join("\n"),
  ];
}

/** The text of a `buttons` or `form` view as pieces (see {@link renderPrompt}). */
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
 * The inline keyboard of a view: one full-width button per option of the question shown, then Other…;
 * `buttons`: then Skip. A form marks picked options and a staged Other… with ✓, then ‹ Back / Next ›
 * (none before the first question, none after the last), then Skip and Send. Every `callback_data` is
 * core's action payload (≤ 23 bytes); labels are cut to {@link BUTTON_LABEL_MAX_CHARS}.
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
 * The prompt message of a view, within 4096 characters: `buttons` — "For @alice" in a shared chat, the
 * header in bold, the question, the numbered options with their descriptions and the deadline (UTC),
 * over an inline keyboard; `form` — the question shown ("Question 2 of 3"), a status line per question,
 * how to reply in text and the deadline, over the form's keyboard; `text` — core's readable text
 * (`given` as it is when it fits: the text core rendered already).
 *
 * @example
 * const { html, replyMarkup } = renderPrompt(promptView(record, { buttons: true }));
 * await api.sendMessage(chatId, html, { parse_mode: "HTML", reply_markup: replyMarkup });
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
