import { actorName } from "../broker/policy.ts";
import type { Answers, QuestionRecord } from "../model/types.ts";
import type { Prompt, PromptQuestion } from "../schema/schema.ts";
import { clipLongestFirst } from "./fit.ts";
import { formatTime, messagesFor } from "./i18n.ts";
import { clipText } from "./text.ts";

/**
 * The longest summary core hands to a channel (UTF-16 units): within every platform's message limit
 * even after the channel escapes it, so a channel never has to cut it (and cut off the attribution).
 */
export const SUMMARY_MAX_LENGTH = 900;

/** Options of the text renderers. */
export interface RenderOptions {
  locale: string;
  /** The deadline, epoch ms. */
  expiresAt: number;
  /** Now, epoch ms: the deadline shows its date when it is another day. */
  now?: number;
  /**
   * Say that answers must be replies to the message (a platform that passes the bot only replies to its
   * own messages, such as a Telegram group in privacy mode).
   */
  replyToMessage?: boolean;
  /**
   * Who may answer, in a conversation with more than one person (SPEC §6): adds "For @alice" at the top.
   * See `promptAudience`.
   */
  forName?: string;
}

function optionLines(question: PromptQuestion, indent: string): string[] {
  return question.options.map((option, index) => {
    const description = option.description ? ` — ${option.description}` : "";
    return `${indent}${index + 1}. ${option.label}${description}`;
  });
}

/** One question as text lines: header and question, then its numbered options. */
export function renderQuestionLines(question: PromptQuestion, number?: number): string[] {
  const head = number === undefined ? "" : `${number}) `;
  return [`${head}${question.header}: ${question.question}`, ...optionLines(question, "   ")];
}

/**
 * The readable-text form of a prompt (SPEC §6), plain text without markup (channels escape it for their
 * format): header, question, numbered options with descriptions, how to reply, the free-text hint, how
 * to skip, and the deadline in UTC.
 *
 * @example
 * await send(chatId, renderPromptText(record.prompt, { locale: "en", expiresAt: record.expiresAt }));
 */
export function renderPromptText(prompt: Prompt, options: RenderOptions): string {
  const m = messagesFor(options.locale);
  const lines: string[] = options.forName ? [m.forWhom(options.forName), ""] : [];
  const several = prompt.questions.length > 1;
  prompt.questions.forEach((question, index) => {
    if (index > 0) lines.push("");
    lines.push(...renderQuestionLines(question, several ? index + 1 : undefined));
  });
  lines.push("");
  if (several) {
    // One line, `;` between keyed answers: typed as shown, it works where Enter sends the message.
    const example = prompt.questions.map((_, index) => `${index + 1}: 1`).join("; ");
    lines.push(m.howToReplySeveral(example));
  } else {
    lines.push(prompt.questions[0]?.multiSelect ? m.howToReplyMulti : m.howToReplySingle);
  }
  if (several && prompt.questions.some((q) => q.multiSelect)) lines.push(m.howToReplyMulti);
  lines.push(m.otherHint);
  lines.push(m.howToSkip);
  if (options.replyToMessage) lines.push(m.replyHint);
  lines.push(m.expiresAt(formatTime(options.expiresAt, options.locale, options.now)));
  return lines.join("\n");
}

/**
 * The answers as one line: `Staging (Recommended)` for one question, `Env: Staging · Regions: EU, US`
 * for several.
 */
export function renderAnswers(prompt: Prompt, answers: Answers, locale = "en"): string {
  const m = messagesFor(locale);
  const answered = prompt.questions.filter((q) => answers[q.id] !== undefined);
  if (prompt.questions.length === 1 && answered.length === 1) {
    const only = answered[0];
    return only ? (answers[only.id] ?? []).join(", ") : m.emptyAnswer;
  }
  return answered.map((q) => `${q.header}: ${(answers[q.id] ?? []).join(", ")}`).join(" · ");
}

/** Options of {@link renderSummary}. */
export interface SummaryOptions {
  locale: string;
  /** The longest summary in UTF-16 units; default {@link SUMMARY_MAX_LENGTH}. */
  maxLength?: number;
  /**
   * Whether the summary fits the channel as it will be sent (escaped, with mentions): the answers are
   * shortened further, longest first, until it does. Default: within `maxLength`.
   */
  fits?: (summary: string) => boolean;
}

/**
 * The after-resolution line (SPEC §6) that replaces the question message and still says what was asked:
 * `✅ Deploy: Staging (Recommended) — @alice`, `⏭ Deploy — skipped by @alice`, `⌛ Deploy — expired`,
 * `✖ Deploy — cancelled` (several questions: their headers joined with ` · `). A pending record gives
 * the empty string. At most `maxLength` (default {@link SUMMARY_MAX_LENGTH}) UTF-16 units: the longest
 * answers are shortened first; every question's header and the attribution always stay.
 */
export function renderSummary(record: QuestionRecord, options: SummaryOptions): string {
  const max = options.maxLength ?? SUMMARY_MAX_LENGTH;
  const m = messagesFor(options.locale);
  const name = record.resolvedBy ? actorName(record.resolvedBy, options.locale) : "";
  // A name is short on every platform; a pathological one is cut so the summary still fits.
  const shortName = name === "" ? "" : clipText(name, 100);
  const who = shortName === "" ? "" : m.summaryBy(shortName);
  // Headers are at most 12 graphemes each, three at most: they always fit.
  const headers = record.prompt.questions.map((q) => q.header).join(" · ");
  switch (record.status) {
    case "pending":
      return "";
    case "answered": {
      const answers = record.answers ?? {};
      const answered = record.prompt.questions.filter((q) => answers[q.id] !== undefined);
      const values = answered.map((q) => (answers[q.id] ?? []).join(", "));
      const head = `${m.summaryAnswered} `;
      const line = (texts: string[]) =>
        `${head}${answered.map((q, i) => `${q.header}: ${texts[i] ?? ""}`).join(" · ")}${who}`;
      const fixed = line(values.map(() => "")).length;
      const fits = (text: string) => text.length <= max && (options.fits?.(text) ?? true);
      let budget = Math.max(answered.length, max - fixed);
      let text = line(clipLongestFirst(values, budget));
      // Each round takes a tenth more off the answers (bounded: the budget only shrinks).
      for (let round = 0; round < 40 && !fits(text) && budget > answered.length; round++) {
        budget = Math.max(answered.length, Math.floor(budget * 0.9) - 1);
        text = line(clipLongestFirst(values, budget));
      }
      return text;
    }
    case "skipped":
      return m.summarySkippedBy(headers, shortName);
    case "expired":
      return m.summaryExpiredOf(headers);
    case "cancelled":
      return m.summaryCancelledOf(headers);
    case "undeliverable":
      return m.summaryUndeliverableOf(headers);
  }
}

/**
 * The name a prompt shows as "For …" (SPEC §6): the creator's display name when the target conversation
 * is shared (not `direct`) and only the creator may answer; `undefined` otherwise.
 */
export function promptAudience(record: QuestionRecord, direct: boolean): string | undefined {
  if (direct || record.answerers.kind !== "creator") return undefined;
  const name = record.creator?.displayName?.trim();
  return name ? name : undefined;
}
