/**
 * Prompt → Telegram message (HTML text and inline keyboard). Pure: no I/O, no clock.
 *
 * Agent text is data: it is HTML-escaped and its `@name` mentions are defused with a word joiner, so it
 * can neither break the markup nor notify anyone. Everything is kept within 4096 characters by cutting
 * option descriptions first, then question texts; a prompt is never refused for its length.
 */
import {
  encodeAction,
  formatTime,
  messagesFor,
  type Prompt,
  type PromptQuestion,
  type QuestionRecord,
  renderPromptText,
} from "@ask-user/core";
import type { InlineKeyboardButton, InlineKeyboardMarkup } from "grammy/types";
import { BUTTON_LABEL_MAX_CHARS, DESCRIPTION_CUTS, MESSAGE_TEXT_MAX_CHARS, QUESTION_CUTS } from "./limits.ts";

/** A message ready for `sendMessage` with `parse_mode: "HTML"`. */
export interface RenderedMessage {
  html: string;
  replyMarkup?: InlineKeyboardMarkup;
}

const WORD_JOINER = "\u2060";
const ELLIPSIS = "…";
const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** Breaks `@name` mentions with an invisible word joiner, so Telegram does not link or notify them. */
export function defuseMentions(text: string): string {
  return text.replace(/@(?=[\p{L}\p{N}_])/gu, `@${WORD_JOINER}`);
}

/** Escapes text for `parse_mode: "HTML"` (the three characters Telegram's HTML parser reserves). */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * `text` cut to at most `max` UTF-16 code units, ending in "…" when cut, never inside a grapheme cluster.
 *
 * @example clip("Deploy to production now", 10) // "Deploy to…"
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return "";
  let out = "";
  for (const { segment } of segmenter.segment(text)) {
    if (out.length + segment.length > max - ELLIPSIS.length) break;
    out += segment;
  }
  return `${out.trimEnd()}${ELLIPSIS}`;
}

/** Plain text (a notice, a summary, a refusal) as safe HTML within the message limit. */
export function renderPlain(text: string, max = MESSAGE_TEXT_MAX_CHARS): string {
  return escapeHtml(clip(defuseMentions(text), max));
}

/** One visible piece of a message; `bold` pieces are wrapped in `<b>`. */
export interface Piece {
  text: string;
  bold?: boolean;
}

/** Pieces as HTML (escaped, mentions defused) and as the plain text Telegram counts. */
export function toHtml(pieces: Piece[]): { html: string; plain: string } {
  let html = "";
  let plain = "";
  for (const piece of pieces) {
    const visible = defuseMentions(piece.text);
    plain += visible;
    html += piece.bold ? `<b>${escapeHtml(visible)}</b>` : escapeHtml(visible);
  }
  return { html, plain };
}

/** A question as pieces: its header in bold, the question, then the numbered options with descriptions. */
export function questionPieces(question: PromptQuestion): Piece[] {
  const pieces: Piece[] = [{ text: question.header, bold: true }, { text: `\n${question.question}\n` }];
  question.options.forEach((option, index) => {
    const description = option.description ? ` — ${option.description}` : "";
    pieces.push({ text: `\n${index + 1}. ${option.label}${description}` });
  });
  return pieces;
}

/** "For @alice" and a blank line, in a shared conversation where only the creator may answer. */
export function forPieces(forName: string | undefined, locale: string): Piece[] {
  return forName === undefined ? [] : [{ text: `${messagesFor(locale).forWhom(forName)}\n\n` }];
}

function buttonPieces(
  question: PromptQuestion,
  request: { locale: string; expiresAt: number; now: number; forName: string | undefined },
): Piece[] {
  const { locale } = request;
  const m = messagesFor(locale);
  return [
    ...forPieces(request.forName, locale),
    ...questionPieces(question),
    { text: `\n\n${m.expiresAt(formatTime(request.expiresAt, locale, request.now))}` },
  ];
}

/**
 * The inline keyboard of a single-select question: one full-width button per option (its label cut to
 * {@link BUTTON_LABEL_MAX_CHARS}), then Other… and Skip, each carrying core's action payload (≤ 23 bytes).
 */
export function renderKeyboard(
  question: PromptQuestion,
  token: string,
  locale: string,
): InlineKeyboardMarkup {
  const m = messagesFor(locale);
  const row = (text: string, data: string): InlineKeyboardButton[] => [{ text, callback_data: data }];
  return {
    inline_keyboard: [
      ...question.options.map((option, index) =>
        row(clip(option.label, BUTTON_LABEL_MAX_CHARS), encodeAction(token, { kind: "option", index })),
      ),
      row(m.other, encodeAction(token, { kind: "other" })),
      row(m.skip, encodeAction(token, { kind: "skip" })),
    ],
  };
}

/** The prompt with descriptions cut to `descriptionMax` and questions to `questionMax` characters. */
function shortened(prompt: Prompt, descriptionMax: number, questionMax: number): Prompt {
  return {
    ...prompt,
    questions: prompt.questions.map((question) => ({
      ...question,
      question: clip(question.question, questionMax),
      options: question.options.map((option) => {
        const description = option.description === undefined ? "" : clip(option.description, descriptionMax);
        return description === "" ? { label: option.label } : { label: option.label, description };
      }),
    })),
  };
}

/** Every shortening to try, mildest first: descriptions first, then question texts. */
export function* shortenings(prompt: Prompt): Generator<Prompt> {
  yield prompt;
  for (const cut of DESCRIPTION_CUTS) yield shortened(prompt, cut, Number.POSITIVE_INFINITY);
  for (const cut of QUESTION_CUTS) yield shortened(prompt, 0, cut);
}

/** What {@link renderPrompt} needs: core's deliver request, less what it does not read. */
export interface PromptRequest {
  record: QuestionRecord;
  locale: string;
  /** Core's readable text of the prompt. */
  text: string;
  /** True for native buttons (one single-select question). */
  buttons: boolean;
  /**
   * The readable text says to reply to the message: in groups, where privacy mode passes the bot only
   * replies to its own messages (and commands and mentions).
   */
  replyToMessage?: boolean;
  /** Who may answer, in a shared conversation: the prompt starts with "For @alice" (in `text` already). */
  forName?: string;
}

/**
 * The question message: with `buttons`, "For @alice" in a shared conversation, the header in bold, the
 * question, the numbered options with their descriptions and the deadline (UTC), over an inline keyboard;
 * otherwise core's readable text (rendered again with "Reply to this message to answer." when
 * `replyToMessage`). Forms have their own message (`renderForm`).
 *
 * @example
 * const { html, replyMarkup } = renderPrompt(request);
 * await api.sendMessage(chatId, html, { parse_mode: "HTML", reply_markup: replyMarkup });
 */
export function renderPrompt(request: PromptRequest): RenderedMessage {
  const { record, locale } = request;
  const question = record.prompt.questions[0];
  const token = record.tokens[0];
  const now = record.createdAt;
  if (request.buttons && question && token) {
    const replyMarkup = renderKeyboard(question, token, locale);
    let last = "";
    const context = { locale, expiresAt: record.expiresAt, now, forName: request.forName };
    for (const prompt of shortenings(record.prompt)) {
      const { html, plain } = toHtml(buttonPieces(prompt.questions[0] ?? question, context));
      if (plain.length <= MESSAGE_TEXT_MAX_CHARS) return { html, replyMarkup };
      last = plain;
    }
    return { html: escapeHtml(clip(last, MESSAGE_TEXT_MAX_CHARS)), replyMarkup };
  }
  const options = {
    locale,
    expiresAt: record.expiresAt,
    now,
    replyToMessage: request.replyToMessage === true,
    ...(request.forName === undefined ? {} : { forName: request.forName }),
  };
  const given = defuseMentions(
    options.replyToMessage ? renderPromptText(record.prompt, options) : request.text,
  );
  if (given.length <= MESSAGE_TEXT_MAX_CHARS) return { html: escapeHtml(given) };
  let last = given;
  for (const prompt of shortenings(record.prompt)) {
    last = defuseMentions(renderPromptText(prompt, options));
    if (last.length <= MESSAGE_TEXT_MAX_CHARS) return { html: escapeHtml(last) };
  }
  return { html: escapeHtml(clip(last, MESSAGE_TEXT_MAX_CHARS)) };
}
