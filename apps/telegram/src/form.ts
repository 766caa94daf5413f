/**
 * A form (several questions, or a multi-select one) as a Telegram message, one question at a time:
 * "Question 2 of 3", the question with its numbered options and descriptions, a status line per question
 * (✓ with its answers, ○ without), how to reply in text, and the deadline — over an inline keyboard with
 * one button per option (✓ on picked ones; a tap stages it in the shared draft), Other…, ‹ Back / Next ›
 * (showing the neighbouring question) and Skip / Send. Pure: no I/O, no clock.
 */
import { encodeAction, formatTime, messagesFor, type Prompt, type QuestionRecord } from "@ask-user/core";
import type { InlineKeyboardButton, InlineKeyboardMarkup } from "grammy/types";
import {
  BUTTON_LABEL_MAX_CHARS,
  FORM_CONTROL_BUTTONS,
  FORM_OPTIONS_MAX,
  FORM_STATUS_VALUE_MAX_CHARS,
  INLINE_KEYBOARD_MAX_BUTTONS,
  MESSAGE_TEXT_MAX_CHARS,
} from "./limits.ts";
import {
  clip,
  escapeHtml,
  forPieces,
  type Piece,
  questionPieces,
  type RenderedMessage,
  shortenings,
  toHtml,
} from "./render.ts";

/** The mark of a picked option (on its button) and of a question with an answer (in the status lines). */
const PICKED = "✓";
const OPEN = "○";

/**
 * True when a form fits Telegram's inline keyboard: every option of the question shown gets a button
 * whose payload core's codec can number (at most {@link FORM_OPTIONS_MAX}), within the keyboard's cap.
 * A form that does not fit is sent as readable text.
 */
export function formFits(prompt: Prompt): boolean {
  const most = Math.max(0, ...prompt.questions.map((q) => q.options.length));
  return most <= FORM_OPTIONS_MAX && most + FORM_CONTROL_BUTTONS <= INLINE_KEYBOARD_MAX_BUTTONS;
}

/** The question a form shows when nothing else is known: the first without an answer, else the first. */
export function firstOpenQuestion(record: QuestionRecord): number {
  const index = record.prompt.questions.findIndex((q) => record.draft?.[q.id] === undefined);
  return index === -1 ? 0 : index;
}

/** Where a form is shown, for its text. */
export interface FormContext {
  locale: string;
  /** Who may answer, in a shared conversation: "For @alice" on top. */
  forName?: string;
  /** In a group (privacy mode): "Reply to this message to answer." for text replies. */
  replyToMessage?: boolean;
}

function button(text: string, data: string): InlineKeyboardButton {
  return { text: clip(text, BUTTON_LABEL_MAX_CHARS), callback_data: data };
}

/**
 * The keyboard of question `index`: one full-width button per option (`✓ ` before a picked one; a tap
 * `pick`s it), Other… (`✓ Other…` when free text is staged), then ‹ Back / Next › (`view` of the
 * neighbouring question: none before the first, none after the last), then Skip and Send (`submit`).
 */
export function renderFormKeyboard(
  record: QuestionRecord,
  index: number,
  locale: string,
): InlineKeyboardMarkup {
  const m = messagesFor(locale);
  const { questions } = record.prompt;
  const question = questions[index];
  const token = record.tokens[index];
  if (!question || token === undefined) return { inline_keyboard: [] };
  const values = record.draft?.[question.id] ?? [];
  const labels = question.options.map((o) => o.label);
  const mark = (on: boolean, text: string) => (on ? `${PICKED} ${text}` : text);
  const rows: InlineKeyboardButton[][] = question.options.map((option, i) => [
    button(
      mark(values.includes(option.label), option.label),
      encodeAction(token, { kind: "pick", index: i }),
    ),
  ]);
  const free = values.some((value) => !labels.includes(value));
  rows.push([button(mark(free, m.other), encodeAction(token, { kind: "other" }))]);
  const nav: InlineKeyboardButton[] = [];
  const before = record.tokens[index - 1];
  const after = record.tokens[index + 1];
  if (index > 0 && before !== undefined) nav.push(button(m.back, encodeAction(before, { kind: "view" })));
  if (index < questions.length - 1 && after !== undefined)
    nav.push(button(m.next, encodeAction(after, { kind: "view" })));
  if (nav.length > 0) rows.push(nav);
  rows.push([
    button(m.skip, encodeAction(token, { kind: "skip" })),
    button(m.send, encodeAction(token, { kind: "submit" })),
  ]);
  return { inline_keyboard: rows };
}

/** What the draft holds, under the question: a status line per question, or the one question's values. */
function statusPieces(record: QuestionRecord, locale: string): Piece[] {
  const m = messagesFor(locale);
  const { questions } = record.prompt;
  const valuesOf = (id: string) => record.draft?.[id];
  if (questions.length === 1) {
    const values = valuesOf(questions[0]?.id ?? "");
    return values
      ? [{ text: `\n\n${clip(m.selected(values.join(", ")), FORM_STATUS_VALUE_MAX_CHARS)}` }]
      : [];
  }
  const lines = questions.map((question, i) => {
    const values = valuesOf(question.id);
    const head = `${values ? PICKED : OPEN} ${i + 1}) ${question.header}`;
    return values ? `${head}: ${clip(values.join(", "), FORM_STATUS_VALUE_MAX_CHARS)}` : head;
  });
  return [{ text: `\n\n${lines.join("\n")}` }];
}

/** How to answer by text instead, and the deadline. */
function footerPieces(record: QuestionRecord, index: number, context: FormContext): Piece[] {
  const m = messagesFor(context.locale);
  const { questions } = record.prompt;
  const lines: string[] = [];
  if (questions.length > 1) {
    // Typed as shown, it works where Enter sends the message: one line, `;` between keyed answers.
    lines.push(m.howToReplySeveral(questions.map((_, i) => `${i + 1}: 1`).join("; ")));
  }
  if (questions[index]?.multiSelect) lines.push(m.howToReplyMulti);
  if (context.replyToMessage) lines.push(m.replyHint);
  lines.push(m.expiresAt(formatTime(record.expiresAt, context.locale, record.createdAt)));
  return [{ text: `\n\n${lines.join("\n")}` }];
}

/**
 * A form's message showing question `index` for the record as it stands (its draft), within 4096
 * characters (descriptions cut first, then the question text, as for other prompts). Rendered from the
 * record alone, so the first delivery and every later refresh give the same message for the same draft.
 *
 * @example
 * const { html, replyMarkup } = renderForm(record, firstOpenQuestion(record), { locale: "en" });
 */
export function renderForm(record: QuestionRecord, shown: number, context: FormContext): RenderedMessage {
  const m = messagesFor(context.locale);
  const total = record.prompt.questions.length;
  const index = Math.min(Math.max(shown, 0), total - 1);
  const replyMarkup = renderFormKeyboard(record, index, context.locale);
  const progress: Piece[] = total > 1 ? [{ text: `${m.questionOf(index + 1, total)}\n` }] : [];
  let last = "";
  for (const prompt of shortenings(record.prompt)) {
    const question = prompt.questions[index];
    if (!question) break;
    const { html, plain } = toHtml([
      ...forPieces(context.forName, context.locale),
      ...progress,
      ...questionPieces(question),
      ...statusPieces(record, context.locale),
      ...footerPieces(record, index, context),
    ]);
    if (plain.length <= MESSAGE_TEXT_MAX_CHARS) return { html, replyMarkup };
    last = plain;
  }
  return { html: escapeHtml(clip(last, MESSAGE_TEXT_MAX_CHARS)), replyMarkup };
}
