/**
 * Prompt → Block Kit, pure. Agent text (headers, questions, labels, descriptions) is data: it is
 * escaped for mrkdwn (`&`, `<`, `>`), so `<!channel>` or `<@U…>` in it mentions nobody, and it is
 * shortened to fit Slack's limits (descriptions first), never refused.
 */
import {
  encodeAction,
  formatTime,
  messagesFor,
  type PromptQuestion,
  type QuestionRecord,
  truncateGraphemes,
} from "@ask-user/core";
import type { types } from "@slack/bolt";
import {
  BUTTON_TEXT_MAX_CHARS,
  CONTEXT_TEXT_MAX_CHARS,
  MESSAGE_TEXT_MAX_CHARS,
  MODAL_BUTTON_MAX_CHARS,
  MODAL_TITLE_MAX_CHARS,
  PLAIN_TEXT_INPUT_MAX_CHARS,
  PRIVATE_METADATA_MAX_CHARS,
  SECTION_TEXT_MAX_CHARS,
} from "./limits.ts";

/** A message body for `chat.postMessage` / `chat.update`: the `text` fallback is always set. */
export interface SlackMessage {
  text: string;
  blocks?: types.KnownBlock[];
}

/** The block and action id of the free-text input in the Other… modal. */
export const ANSWER_BLOCK_ID = "ask_user_answer";
export const ANSWER_ACTION_ID = "ask_user_answer";

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

function headline(question: PromptQuestion): string {
  const header = escapeWithin(question.header, 200);
  return `*${header}*\n${escapeWithin(question.question, SECTION_TEXT_MAX_CHARS - header.length - 3)}`;
}

/** The option descriptions as mrkdwn lines, descriptions shortened evenly to fit one context element. */
function descriptionLines(question: PromptQuestion): string | undefined {
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

function button(text: string, data: string, primary = false): types.Button {
  const element: types.Button = {
    type: "button",
    text: { type: "plain_text", text: truncateGraphemes(text, BUTTON_TEXT_MAX_CHARS), emoji: true },
    action_id: data,
    value: data,
  };
  if (primary) element.style = "primary";
  return element;
}

/** The deadline line in the reader's local time (`Expires at <!date^…>.`); the fallback has the date. */
function deadline(record: QuestionRecord, locale: string): string {
  // A "now" on another day makes formatTime include the date: the fallback must not assume today.
  const fallback = formatTime(record.expiresAt, locale, record.expiresAt - 86_400_000);
  return messagesFor(locale).expiresAt(slackDate(record.expiresAt, fallback));
}

/**
 * One single-select question as Block Kit: a section with header and question, a context block with
 * the option descriptions and the deadline, and an actions block with one button per option (the
 * recommended first one `primary`), then **Other…** and **Skip**. `action_id` = `value` = core's action
 * codec, unique within the message.
 */
export function renderQuestion(record: QuestionRecord, locale: string): SlackMessage {
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
  return {
    text: escapeWithin(`${question.header}: ${question.question}`, SECTION_TEXT_MAX_CHARS),
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: headline(question) } },
      { type: "context", elements: context },
      { type: "actions", block_id: `ask_user.${token}`, elements: buttons },
    ],
  };
}

/**
 * Core's readable text (several questions, multi-select) as mrkdwn: escaped, with its UTC deadline line
 * replaced by one in the reader's local time.
 */
export function renderText(text: string, record: QuestionRecord, locale: string): SlackMessage {
  const m = messagesFor(locale);
  const lines = escapeMrkdwn(text).split("\n");
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

/**
 * A message only one person sees (a refusal, a hint): escaped like {@link renderNotice}, except that
 * user mentions `<@U…>` stay mentions, which Slack shows as the person's name (SPEC §5: "This question
 * is for <@U0ALICE>." reads "This question is for @alice"). An ephemeral message notifies nobody.
 */
export function renderPrivateNotice(text: string): SlackMessage {
  return { text: renderNotice(text).text.replace(ESCAPED_MENTION, "<@$1>") };
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

/** What the Other… modal carries back in `private_metadata`: where the question was tapped. */
export interface ModalMetadata {
  /** The conversation (address) of the tap. */
  c: string;
}

/**
 * The Other… modal: the question again, and one required multiline `plain_text_input`. Its
 * `callback_id` is the Other… action data, so the submission finds the question by its token.
 */
export function renderOtherModal(
  record: QuestionRecord,
  questionIndex: number,
  conversation: string,
  locale: string,
): types.ModalView {
  const question = record.prompt.questions[questionIndex];
  const token = record.tokens[questionIndex];
  if (!question || token === undefined) throw new TypeError("renderOtherModal: no such question");
  const m = messagesFor(locale);
  const metadata: ModalMetadata = { c: conversation };
  const privateMetadata = JSON.stringify(metadata);
  if (privateMetadata.length > PRIVATE_METADATA_MAX_CHARS) throw new RangeError("private_metadata too long");
  return {
    type: "modal",
    callback_id: encodeAction(token, { kind: "other" }),
    private_metadata: privateMetadata,
    title: { type: "plain_text", text: truncateGraphemes(m.other, MODAL_TITLE_MAX_CHARS), emoji: true },
    submit: { type: "plain_text", text: truncateGraphemes(m.send, MODAL_BUTTON_MAX_CHARS) },
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: headline(question) } },
      {
        type: "input",
        block_id: ANSWER_BLOCK_ID,
        label: { type: "plain_text", text: m.yourAnswer, emoji: true },
        element: {
          type: "plain_text_input",
          action_id: ANSWER_ACTION_ID,
          multiline: true,
          max_length: PLAIN_TEXT_INPUT_MAX_CHARS,
        },
      },
    ],
  };
}
