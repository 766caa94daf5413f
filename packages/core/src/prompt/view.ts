/**
 * The prompt view: everything a channel shows for a pending question, computed by core from the record,
 * its shared draft and the channel's capabilities — the audience line, the question blocks, the controls
 * with their encoded payloads and picked state, the status lines, the footer. A channel only turns a view
 * into its platform's format (`fitView` shortens it to the platform's limits first). Pure.
 */

import type { QuestionRecord } from "../model/types.ts";
import { encodeAction } from "./codec.ts";
import { formatTime, messagesFor } from "./i18n.ts";
import { isRecommended } from "./text.ts";

/**
 * How the prompt is shown: `buttons` (one single-select question, one button per option), `form` (native
 * controls staging into the shared draft: several questions or a multi-select one), or `text` (readable
 * text only, answered by a text reply).
 */
export type PromptLayout = "buttons" | "form" | "text";

/** A control: its label (in the record's locale) and its encoded action payload (≤ 64 bytes). */
export interface ControlView {
  label: string;
  action: string;
  /** Other… with a staged own answer. */
  picked?: boolean;
}

/** One option of a question. */
export interface OptionView {
  index: number;
  label: string;
  /** The option's description; cut or dropped by `fitView` to fit. */
  description?: string;
  /** The label ends in "(Recommended)". */
  recommended: boolean;
  /** The shared draft holds it. */
  picked: boolean;
  /**
   * The payload of a tap: `option` (buttons: answers at once) or `pick` (form: toggles in the draft);
   * empty in the text layout, which has no controls.
   */
  action: string;
}

/** One question block. */
export interface QuestionView {
  index: number;
  id: string;
  /** 1-based, when the prompt has several questions ("2) Regions"). */
  number?: number;
  /** Never cut. */
  header: string;
  /** The question; cut by `fitView` only when nothing gentler fits. */
  question: string;
  multiSelect: boolean;
  options: OptionView[];
  /** The payload of a select menu / radio group / checkbox group (`choose`, values = option indexes). */
  choose: string;
  other: ControlView;
  /** What the shared draft holds for the question (labels and own answers), as staged. */
  values: string[];
  /** The staged own answer (a value that is no option's label), if any. */
  own?: string;
  /** The draft has an answer for it. */
  answered: boolean;
}

/** A form's line per question: `✓ 2) Regions: EU, US` / `○ 3) Window`. */
export interface StatusLine {
  number?: number;
  header: string;
  answered: boolean;
  /** The staged values, joined with ", "; cut longest first by `fitView`. */
  values?: string;
}

/** See the module comment. */
export interface PromptView {
  questionId: string;
  locale: string;
  layout: PromptLayout;
  /** "For @alice" (SPEC §6): who may answer, in a shared conversation. Never cut. */
  audience?: { name: string; line: string };
  /** The question a stepping form shows (0-based), of `total`; `line` is "Question 2 of 3" (several only). */
  step: { index: number; total: number; line?: string };
  questions: QuestionView[];
  /** Forms: one line per question (several), or one for the single question's selection. */
  status: StatusLine[];
  /** How to answer by a text reply, one line each (the text layout adds how to skip and Other…). */
  howToReply: string[];
  /** The deadline, epoch ms, and its line in UTC ("Expires at 14:05 UTC."). */
  expires: { at: number; line: string };
  controls: {
    back?: ControlView;
    next?: ControlView;
    skip: ControlView;
    /** Forms only. */
    send?: ControlView;
  };
}

/** Limits of a channel's native forms (`ChannelCapabilities.forms`). */
export interface FormLimits {
  /** The most options one question's control holds. */
  maxOptions?: number;
  /** The most questions one form holds. */
  maxQuestions?: number;
}

/** What {@link buildPromptView} needs besides the record. */
export interface PromptViewOptions {
  /** Native buttons for one single-select question (the broker's `DeliverRequest.buttons`). */
  buttons?: boolean;
  /** The channel's native forms; without it, forms are readable text. */
  forms?: FormLimits | false;
  /** Who may answer, shown as "For …" (`promptAudience`); undefined: nobody named. */
  forName?: string | undefined;
  /** The question a stepping form shows; default the first without an answer. */
  shown?: number;
  /** Say that answers must be replies to the message (Telegram groups in privacy mode). */
  replyToMessage?: boolean;
  /** Now, epoch ms (the deadline shows its date when another day); default the record's creation. */
  now?: number;
}

/** True when the prompt is a form (several questions, or a multi-select one): native forms stage a draft. */
export function isForm(prompt: Pick<QuestionRecord["prompt"], "questions">): boolean {
  const { questions } = prompt;
  return questions.length > 1 || questions[0]?.multiSelect === true;
}

/** The question a form shows when nothing else is known: the first without an answer, else the first. */
export function firstOpenQuestion(record: Pick<QuestionRecord, "prompt" | "draft">): number {
  const index = record.prompt.questions.findIndex((q) => record.draft?.[q.id] === undefined);
  return index === -1 ? 0 : index;
}

/** The most options a control can number (the codec's option index is one digit). */
const CODEC_OPTIONS_MAX = 10;

function layoutOf(record: QuestionRecord, options: PromptViewOptions): PromptLayout {
  if (record.prompt.questions.some((q) => q.options.length > CODEC_OPTIONS_MAX)) return "text";
  if (!isForm(record.prompt)) return options.buttons ? "buttons" : "text";
  const forms = options.forms;
  if (!forms) return "text";
  const { questions } = record.prompt;
  const fits =
    questions.length <= (forms.maxQuestions ?? Number.POSITIVE_INFINITY) &&
    questions.every((q) => q.options.length <= (forms.maxOptions ?? Number.POSITIVE_INFINITY));
  return fits ? "form" : "text";
}

/** How to reply by text: one line per question (several), the multi-select rule, the group hint. */
function howToReply(record: QuestionRecord, locale: string, replyToMessage: boolean): string[] {
  const m = messagesFor(locale);
  const { questions } = record.prompt;
  const lines: string[] = [];
  if (questions.length > 1) {
    // One line, `;` between keyed answers: typed as shown, it works where Enter sends the message.
    lines.push(m.howToReplySeveral(questions.map((_, i) => `${i + 1}: 1`).join("; ")));
    if (questions.some((q) => q.multiSelect)) lines.push(m.howToReplyMulti);
  } else {
    lines.push(questions[0]?.multiSelect ? m.howToReplyMulti : m.howToReplySingle);
  }
  if (replyToMessage) lines.push(m.replyHint);
  return lines;
}

/**
 * The view of `record` as it stands (its draft), for a channel with `options`. Rendered from the record
 * alone, so the first delivery and every later refresh give the same view for the same draft.
 *
 * @example
 * const view = fitView(buildPromptView(record, { buttons: true, forName }), (v) => render(v).length <= 4096);
 */
export function buildPromptView(record: QuestionRecord, options: PromptViewOptions = {}): PromptView {
  const locale = record.locale;
  const m = messagesFor(locale);
  const layout = layoutOf(record, options);
  const { questions } = record.prompt;
  const total = questions.length;
  const several = total > 1;
  const stepIndex = Math.min(Math.max(options.shown ?? firstOpenQuestion(record), 0), total - 1);
  const tokenOf = (index: number) => record.tokens[index] ?? "";
  // Payloads only where there are controls (a text prompt has none; a hand-built record may lack tokens).
  const encode = (token: string, action: Parameters<typeof encodeAction>[1]) =>
    layout === "text" || token === "" ? "" : encodeAction(token, action);
  const views: QuestionView[] = questions.map((question, index) => {
    const token = tokenOf(index);
    const values = record.draft?.[question.id] ?? [];
    const labels = question.options.map((o) => o.label);
    const own = values.find((value) => !labels.includes(value));
    return {
      index,
      id: question.id,
      ...(several ? { number: index + 1 } : {}),
      header: question.header,
      question: question.question,
      multiSelect: question.multiSelect,
      options: question.options.map((option, i) => ({
        index: i,
        label: option.label,
        ...(option.description === undefined ? {} : { description: option.description }),
        recommended: isRecommended(option.label),
        picked: values.includes(option.label),
        action: encode(token, { kind: layout === "buttons" ? "option" : "pick", index: i }),
      })),
      choose: encode(token, { kind: "choose" }),
      other: { label: m.other, action: encode(token, { kind: "other" }), picked: own !== undefined },
      values,
      ...(own === undefined ? {} : { own }),
      answered: record.draft?.[question.id] !== undefined,
    };
  });
  const status: StatusLine[] = views.map((q) => ({
    ...(q.number === undefined ? {} : { number: q.number }),
    header: q.header,
    answered: q.answered,
    ...(q.answered ? { values: q.values.join(", ") } : {}),
  }));
  const shownToken = tokenOf(stepIndex);
  const controls: PromptView["controls"] = {
    skip: { label: m.skip, action: encode(shownToken, { kind: "skip" }) },
  };
  if (layout === "form") {
    controls.send = { label: m.send, action: encode(shownToken, { kind: "submit" }) };
    if (stepIndex > 0)
      controls.back = { label: m.back, action: encode(tokenOf(stepIndex - 1), { kind: "view" }) };
    if (stepIndex < total - 1)
      controls.next = { label: m.next, action: encode(tokenOf(stepIndex + 1), { kind: "view" }) };
  }
  const now = options.now ?? record.createdAt;
  return {
    questionId: record.id,
    locale,
    layout,
    ...(options.forName === undefined
      ? {}
      : { audience: { name: options.forName, line: m.forWhom(options.forName) } }),
    step: { index: stepIndex, total, ...(several ? { line: m.questionOf(stepIndex + 1, total) } : {}) },
    questions: views,
    status,
    howToReply: howToReply(record, locale, options.replyToMessage === true),
    expires: { at: record.expiresAt, line: m.expiresAt(formatTime(record.expiresAt, locale, now)) },
    controls,
  };
}

/**
 * The readable text of a view (SPEC §6), plain text without markup (channels escape it for their
 * format): "For …", each question with its numbered options and descriptions, how to reply, the
 * free-text hint, how to skip, and the deadline in UTC.
 */
export function renderViewText(view: PromptView): string {
  const m = messagesFor(view.locale);
  const lines: string[] = view.audience ? [view.audience.line, ""] : [];
  view.questions.forEach((question, index) => {
    if (index > 0) lines.push("");
    lines.push(...questionTextLines(question));
  });
  lines.push("");
  lines.push(...view.howToReply.filter((line) => line !== m.replyHint));
  lines.push(m.otherHint);
  lines.push(m.howToSkip);
  if (view.howToReply.includes(m.replyHint)) lines.push(m.replyHint);
  lines.push(view.expires.line);
  return lines.join("\n");
}

/** One question as text lines: `2) Header: question`, then its numbered options with descriptions. */
export function questionTextLines(question: QuestionView): string[] {
  const head = question.number === undefined ? "" : `${question.number}) `;
  return [
    `${head}${question.header}: ${question.question}`,
    ...question.options.map((option) => {
      const description = option.description ? ` — ${option.description}` : "";
      return `   ${option.index + 1}. ${option.label}${description}`;
    }),
  ];
}
