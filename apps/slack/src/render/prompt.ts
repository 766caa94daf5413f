/**
 * Core's prompt view → Block Kit, pure (README "What people see"), shortened by core's `fitView` until
 * it fits. Agent text is escaped; the only mention a prompt makes is its "For <@U…>".
 */
import {
  buildPromptView,
  clipText,
  decodeAction,
  fitView,
  formatTime,
  messagesFor,
  type PromptView,
  type QuestionRecord,
  type QuestionView,
  renderViewText,
} from "@ask-user/core/channel";
import type { types } from "@slack/bolt";
import {
  BUTTON_TEXT_MAX_CHARS,
  CHOICE_OPTIONS_MAX,
  CONTEXT_TEXT_MAX_CHARS,
  MESSAGE_TEXT_MAX_CHARS,
  OPTION_DESCRIPTION_MAX_CHARS,
  OPTION_TEXT_MAX_CHARS,
  SECTION_TEXT_MAX_CHARS,
} from "../limits.ts";
import { escapeMrkdwn, escapeWithin, type SlackMessage, slackDate } from "./mrkdwn.ts";

const MENTION = /^<@[UW][A-Z0-9]{2,}>$/;

type Frame = Pick<PromptView, "locale" | "expires" | "audience">;

/** "For <name>" (SPEC §6) as mrkdwn: a mention `<@U…>` stays one (the question is theirs); else escaped. */
function forText(view: Frame): string | undefined {
  if (!view.audience) return undefined;
  const { name } = view.audience;
  return messagesFor(view.locale).forWhom(MENTION.test(name) ? name : escapeWithin(name, 200));
}

const section = (text: string): types.KnownBlock => ({ type: "section", text: { type: "mrkdwn", text } });
const context = (...texts: string[]): types.KnownBlock => ({
  type: "context",
  elements: texts.map((text) => ({ type: "mrkdwn", text })),
});

const forLine = (view: Frame) =>
  [forText(view)].flatMap((text) => (text === undefined ? [] : [section(text)]));

/** Native buttons for a lone single-select question (the broker's); "For …" (`promptAudience`). */
type ViewOptions = { buttons: boolean; forName?: string | undefined };

/** Slack's view of a record: a form when every question fits one group (10 options), all shown at once. */
export function slackView(record: QuestionRecord, { buttons, forName }: ViewOptions): PromptView {
  return buildPromptView(record, { buttons, forName, forms: { maxOptions: CHOICE_OPTIONS_MAX }, shown: 0 });
}

/** The most a text may take: the limit when drawing for Slack, unbounded while `fitView` measures. */
type Cap = (limit: number) => number;
const exact: Cap = (limit) => limit;
const unbounded: Cap = () => Number.POSITIVE_INFINITY;

/** A question's header in bold (numbered in a form of several: `*2) Regions*`) and the question. */
export function headline(question: QuestionView, cap: Cap = exact): string {
  const number = question.number === undefined ? "" : `${question.number}) `;
  const header = escapeWithin(`${number}${question.header}`, 200);
  return `*${header}*\n${escapeWithin(question.question, cap(SECTION_TEXT_MAX_CHARS - header.length - 3))}`;
}

/** The option descriptions as mrkdwn lines (`*Label* — description`). */
function descriptionLines(question: QuestionView): string | undefined {
  const described = question.options.filter((option) => option.description);
  if (described.length === 0) return undefined;
  return described
    .map((o) => `*${escapeWithin(o.label, 200)}* — ${escapeMrkdwn(o.description ?? "")}`)
    .join("\n");
}

/** A button whose `action_id` and `value` are core's action payload. */
function button(text: string, action: string, primary = false): types.Button {
  const element: types.Button = {
    type: "button",
    text: { type: "plain_text", text: clipText(text, BUTTON_TEXT_MAX_CHARS), emoji: true },
    action_id: action,
    value: action,
  };
  if (primary) element.style = "primary";
  return element;
}

function deadline(view: Frame): string {
  // A "now" on another day makes formatTime include the date: the fallback must not assume today.
  const fallback = formatTime(view.expires.at, view.locale, view.expires.at - 86_400_000);
  return messagesFor(view.locale).expiresAt(slackDate(view.expires.at, fallback));
}

const tokenOf = (question: QuestionView | undefined) =>
  question ? (decodeAction(question.choose)?.token ?? "") : "";

/** One single-select question: a button per option (the recommended first one `primary`), Other…, Skip. */
function buttonBlocks(view: PromptView, cap: Cap): types.KnownBlock[] {
  const question = view.questions[0];
  if (!question) throw new TypeError("renderPrompt: the view has no question");
  const descriptions = descriptionLines(question);
  return [
    ...forLine(view),
    section(headline(question, cap)),
    descriptions ? context(descriptions, deadline(view)) : context(deadline(view)),
    {
      type: "actions",
      block_id: `ask_user.${tokenOf(question)}`,
      elements: [
        ...question.options.map((o) => button(o.label, o.action, o.index === 0 && o.recommended)),
        button(question.other.label, question.other.action),
        button(view.controls.skip.label, view.controls.skip.action),
      ],
    },
  ];
}

/**
 * One form question. The `block_id` is new in every `version`: Slack's client keeps what a person selected
 * in a block it knows and shows `initial_option(s)` only for a new one.
 */
function questionBlocks(view: PromptView, question: QuestionView, version: number, cap: Cap) {
  let text = headline(question, cap);
  if (question.own !== undefined) {
    const head = `\n_${escapeMrkdwn(messagesFor(view.locale).yourAnswer)}:_ `;
    text += `${head}${escapeWithin(question.own, Math.max(1, cap(SECTION_TEXT_MAX_CHARS - text.length - head.length)))}`;
  }
  const blocks = [section(text)];
  const inline = question.options.every((o) => (o.description ?? "").length <= OPTION_DESCRIPTION_MAX_CHARS);
  const described = inline ? undefined : descriptionLines(question);
  if (described) blocks.push(context(described));
  const options: types.PlainTextOption[] = question.options.map((option) => ({
    text: { type: "plain_text", text: clipText(option.label, OPTION_TEXT_MAX_CHARS), emoji: true },
    value: String(option.index),
    ...(inline && option.description
      ? { description: { type: "plain_text", text: option.description, emoji: true } }
      : {}),
  }));
  // The very option objects: Slack wants the initial ones to match an option exactly.
  const selected = options.filter((_, i) => question.options[i]?.picked);
  const action_id = question.choose;
  const group: types.Checkboxes | types.RadioButtons = question.multiSelect
    ? { type: "checkboxes", action_id, options, ...(selected[0] ? { initial_options: selected } : {}) }
    : { type: "radio_buttons", action_id, options, ...(selected[0] ? { initial_option: selected[0] } : {}) };
  blocks.push({
    type: "actions",
    block_id: `ask_user.${tokenOf(question)}.${version}`,
    elements: [group, button(question.other.label, question.other.action)],
  });
  return blocks;
}

function formBlocks(view: PromptView, version: number, cap: Cap): types.KnownBlock[] {
  const { send, skip } = view.controls;
  const footer = [...view.howToReply.map(escapeMrkdwn), deadline(view)].join("\n");
  return [
    ...forLine(view),
    ...view.questions.flatMap((question) => questionBlocks(view, question, version, cap)),
    context(footer),
    {
      type: "actions",
      block_id: `ask_user.${tokenOf(view.questions[0])}.send`,
      elements: [...(send ? [button(send.label, send.action, true)] : []), button(skip.label, skip.action)],
    },
  ];
}

/** Core's readable text as mrkdwn: "For <@U…>" kept a mention, the deadline in the reader's time. */
function readableText(text: string, view: Frame): string {
  const lines = escapeMrkdwn(text).split("\n");
  const audience = forText(view);
  if (audience !== undefined) lines[0] = audience;
  lines[lines.length - 1] = deadline(view);
  return lines.join("\n");
}

function fitsSlack(message: SlackMessage): boolean {
  if (message.text.length > MESSAGE_TEXT_MAX_CHARS) return false;
  return (message.blocks ?? []).every((block) => {
    if (block.type === "section") return (block.text?.text.length ?? 0) <= SECTION_TEXT_MAX_CHARS;
    if (block.type === "context")
      return block.elements.every((e) => !("text" in e) || e.text.length <= CONTEXT_TEXT_MAX_CHARS);
    return true;
  });
}

function draw(view: PromptView, version: number, cap: Cap): SlackMessage {
  if (view.layout === "text") return { text: readableText(renderViewText(view), view) };
  const blocks = view.layout === "buttons" ? buttonBlocks(view, cap) : formBlocks(view, version, cap);
  return { text: "", blocks };
}

/** The prompt message of `view`, fitted; its `text` (notifications, search) as the README says. */
export function renderPrompt(view: PromptView, version: number): SlackMessage {
  const fitted = fitView(view, (v) => fitsSlack(draw(v, version, unbounded)));
  const message = draw(fitted, version, exact);
  const question = view.questions[0];
  if (view.layout === "buttons" && question)
    message.text = escapeWithin(`${question.header}: ${question.question}`, SECTION_TEXT_MAX_CHARS);
  if (view.layout === "form")
    message.text = clipText(readableText(renderViewText(view), view), MESSAGE_TEXT_MAX_CHARS);
  return message;
}

/** The prompt message of `record` as Slack shows it; `layout` says which. */
export function promptMessage(
  record: QuestionRecord,
  options: ViewOptions,
): SlackMessage & { layout: PromptView["layout"] } {
  const view = slackView(record, options);
  return { layout: view.layout, ...renderPrompt(view, record.version) };
}
