/**
 * Prompt → Block Kit, pure: a lone single-select question as buttons, readable text, notices and the
 * summary (forms: `form.ts`; the Other… modal: `modal.ts`). Agent text (headers, questions, labels,
 * descriptions) is data: it is escaped for mrkdwn (`&`, `<`, `>`), so `<!channel>` or `<@U…>` in it
 * mentions nobody, and it is shortened to fit Slack's limits (descriptions first), never refused. The
 * only mentions are the ones this app writes: "For <@U…>" on a prompt and the names in private notices.
 */
import {
  clipText,
  encodeAction,
  formatTime,
  messagesFor,
  type PromptQuestion,
  type QuestionRecord,
} from "@ask-user/core";
import type { types } from "@slack/bolt";
import {
  BUTTON_TEXT_MAX_CHARS,
  CONTEXT_TEXT_MAX_CHARS,
  MESSAGE_TEXT_MAX_CHARS,
  SAME_DAY_WINDOW_MS,
  SECTION_TEXT_MAX_CHARS,
} from "./limits.ts";

/** A message body for `chat.postMessage` / `chat.update`: the `text` fallback is always set. */
export interface SlackMessage {
  text: string;
  blocks?: types.KnownBlock[];
}

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** Escapes text for mrkdwn: `&` → `&amp;`, `<` → `&lt;`, `>` → `&gt;` (Slack's only control characters). */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * Escapes `text` and keeps the result within `max` characters: cut between grapheme clusters (never
 * inside an emoji or an `&amp;`), with `…` when something was cut.
 */
export function escapeWithin(text: string, max: number): string {
  const escaped = escapeMrkdwn(text);
  if (escaped.length <= max) return escaped;
  let out = "";
  for (const { segment } of segmenter.segment(text)) {
    const next = escapeMrkdwn(segment);
    if (out.length + next.length > max - 1) break;
    out += next;
  }
  return `${out}…`;
}

/**
 * A date Slack shows in the reader's own time zone and locale, with a fallback for old clients:
 * `<!date^1767276300^{date_short_pretty} {time}|14:05 UTC>`.
 */
export function slackDate(epochMs: number, fallback: string): string {
  return `<!date^${Math.floor(epochMs / 1000)}^{date_short_pretty} {time}|${fallback.replace(/[|>]/g, "")}>`;
}

/**
 * A moment in the reader's own time zone for a notice (`Channel.formatTime`): `<!date^…^{time}|14:05 UTC>`,
 * with the date too (`{date_short} {time}`) when it is not within 12 hours of `nowMs`. The fallback, for
 * clients that cannot render it, is core's UTC time.
 */
export function slackTime(epochMs: number, locale: string, nowMs: number): string {
  const near = Math.abs(epochMs - nowMs) < SAME_DAY_WINDOW_MS;
  const fallback = formatTime(epochMs, locale, nowMs).replace(/[|>]/g, "");
  return `<!date^${Math.floor(epochMs / 1000)}^${near ? "{time}" : "{date_short} {time}"}|${fallback}>`;
}

/** A user mention exactly: `<@U0ALICE>`. */
const MENTION = /^<@[UW][A-Z0-9]{2,}>$/;

/**
 * "For <name>" (SPEC §6) as mrkdwn: a mention `<@U…>` stays one (Slack shows the person's name and
 * notifies them: the question is theirs); any other name is escaped.
 */
export function forLine(forName: string, locale: string): string {
  return messagesFor(locale).forWhom(MENTION.test(forName) ? forName : escapeWithin(forName, 200));
}

/** A question's header in bold (numbered in a form of several: `*2) Regions*`) and the question. */
export function headline(question: PromptQuestion, number?: number): string {
  const header = escapeWithin(`${number === undefined ? "" : `${number}) `}${question.header}`, 200);
  return `*${header}*\n${escapeWithin(question.question, SECTION_TEXT_MAX_CHARS - header.length - 3)}`;
}

/** The option descriptions as mrkdwn lines, descriptions shortened evenly to fit one context element. */
export function descriptionLines(question: PromptQuestion): string | undefined {
  const described = question.options.filter((o) => o.description);
  if (described.length === 0) return undefined;
  const lines = (share: number) =>
    question.options
      .filter((o) => o.description)
      .map((o) => `*${escapeWithin(o.label, 200)}* — ${escapeWithin(o.description ?? "", share)}`)
      .join("\n");
  const full = lines(Number.POSITIVE_INFINITY);
  if (full.length <= CONTEXT_TEXT_MAX_CHARS) return full;
  const fixed = lines(0).length;
  return lines(Math.max(1, Math.floor((CONTEXT_TEXT_MAX_CHARS - fixed) / described.length)));
}

/** A button whose `action_id` and `value` are core's action data; its label cut to 75 with "…". */
export function button(text: string, data: string, primary = false): types.Button {
  const element: types.Button = {
    type: "button",
    text: { type: "plain_text", text: clipText(text, BUTTON_TEXT_MAX_CHARS), emoji: true },
    action_id: data,
    value: data,
  };
  if (primary) element.style = "primary";
  return element;
}

/** The deadline line in the reader's local time (`Expires at <!date^…>.`); the fallback has the date. */
export function deadline(record: QuestionRecord, locale: string): string {
  // A "now" on another day makes formatTime include the date: the fallback must not assume today.
  const fallback = formatTime(record.expiresAt, locale, record.expiresAt - 86_400_000);
  return messagesFor(locale).expiresAt(slackDate(record.expiresAt, fallback));
}

/**
 * One single-select question as Block Kit: "For <@U…>" in a shared conversation, a section with header
 * and question, a context block with the option descriptions and the deadline, and an actions block with
 * one button per option (the recommended first one `primary`), then **Other…** and **Skip**.
 * `action_id` = `value` = core's action codec, unique within the message.
 */
export function renderQuestion(record: QuestionRecord, locale: string, forName?: string): SlackMessage {
  const question = record.prompt.questions[0];
  const token = record.tokens[0];
  if (!question || token === undefined) throw new TypeError("renderQuestion: the record has no question");
  const m = messagesFor(locale);
  const context: types.ContextBlock["elements"] = [];
  const descriptions = descriptionLines(question);
  if (descriptions) context.push({ type: "mrkdwn", text: descriptions });
  context.push({ type: "mrkdwn", text: deadline(record, locale) });
  const buttons = question.options.map((option, index) =>
    button(
      option.label,
      encodeAction(token, { kind: "option", index }),
      index === 0 && /\(recommended\)\s*$/i.test(option.label),
    ),
  );
  buttons.push(button(m.other, encodeAction(token, { kind: "other" })));
  buttons.push(button(m.skip, encodeAction(token, { kind: "skip" })));
  const blocks: types.KnownBlock[] = [];
  if (forName !== undefined)
    blocks.push({ type: "section", text: { type: "mrkdwn", text: forLine(forName, locale) } });
  return {
    text: escapeWithin(`${question.header}: ${question.question}`, SECTION_TEXT_MAX_CHARS),
    blocks: [
      ...blocks,
      { type: "section", text: { type: "mrkdwn", text: headline(question) } },
      { type: "context", elements: context },
      { type: "actions", block_id: `ask_user.${token}`, elements: buttons },
    ],
  };
}

/**
 * Core's readable text as mrkdwn: escaped, its "For <@U…>" line (`forName`, core's first line) kept a
 * mention, its UTC deadline line replaced by one in the reader's local time. The prompt of a question
 * that no native control fits, and the `text` of every form (notifications, search).
 */
export function renderText(
  text: string,
  record: QuestionRecord,
  locale: string,
  forName?: string,
): SlackMessage {
  const m = messagesFor(locale);
  const lines = escapeMrkdwn(text).split("\n");
  if (forName !== undefined && lines[0] === escapeMrkdwn(m.forWhom(forName)))
    lines[0] = forLine(forName, locale);
  const utcLines = [formatTime(record.expiresAt, locale), formatTime(record.expiresAt, locale, 0)].map((t) =>
    escapeMrkdwn(m.expiresAt(t)),
  );
  const last = lines.length - 1;
  if (utcLines.includes(lines[last] ?? "")) lines[last] = deadline(record, locale);
  const out = lines.join("\n");
  return {
    text: out.length <= MESSAGE_TEXT_MAX_CHARS ? out : `${out.slice(0, MESSAGE_TEXT_MAX_CHARS - 1)}…`,
  };
}

/** A short message (notice, confirmation): escaped text, no controls. */
export function renderNotice(text: string): SlackMessage {
  return { text: escapeWithin(text, MESSAGE_TEXT_MAX_CHARS) };
}

/** A user mention as it reads once escaped (`&lt;@U0ALICE&gt;`). */
const ESCAPED_MENTION = /&lt;@([UW][A-Z0-9]{2,})&gt;/g;

/** A {@link slackTime} as it reads once escaped (`&lt;!date^1767362700^{time}|14:05 UTC&gt;`). */
const ESCAPED_TIME = /&lt;(!date\^\d+\^(?:\{date_short\} )?\{time\}\|[^&<>|]*)&gt;/g;

/**
 * A message only one person sees (a refusal, a hint): escaped like {@link renderNotice}, except that
 * user mentions `<@U…>` stay mentions, which Slack shows as the person's name (SPEC §5: "This question
 * is for <@U0ALICE>." reads "This question is for @alice"), and times from {@link slackTime} stay dates
 * in the reader's time zone ("This question expired at 14:05"). An ephemeral message notifies nobody.
 */
export function renderPrivateNotice(text: string): SlackMessage {
  return { text: renderNotice(text).text.replace(ESCAPED_MENTION, "<@$1>").replace(ESCAPED_TIME, "<$1>") };
}

/** Core's summaries end in their attribution: `✅ Deploy: Staging — @alice`. */
const ATTRIBUTION = " — ";

/**
 * The after-resolution summary: the same text in a section, which replaces every block (controls gone).
 * `mention` is the name of who resolved it when that is a user mention (`<@U0ALICE>`, what people are
 * called when `users.info` gave no name): at the end of the summary it stays a mention, which Slack shows
 * as the person's name; everything else is escaped. Escaping can make the summary longer than a section
 * holds; then the answer is shortened, never the attribution after the last ` — `.
 */
export function renderSummary(
  summary: string,
  mention?: string,
): SlackMessage & { blocks: types.KnownBlock[] } {
  const kept = mention && summary.endsWith(mention) ? mention : "";
  const rest = summary.slice(0, summary.length - kept.length);
  let text = `${escapeMrkdwn(rest)}${kept}`;
  if (text.length > SECTION_TEXT_MAX_CHARS) {
    const at = rest.lastIndexOf(ATTRIBUTION);
    const tail = at === -1 ? kept : `${escapeWithin(rest.slice(at), 200)}${kept}`;
    text = `${escapeWithin(at === -1 ? rest : rest.slice(0, at), SECTION_TEXT_MAX_CHARS - tail.length)}${tail}`;
  }
  return { text, blocks: [{ type: "section", text: { type: "mrkdwn", text } }] };
}
