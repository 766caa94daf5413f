/**
 * A prompt that is a form (core's `isForm`: several questions, or a multi-select one) as Block Kit,
 * pure. Top to bottom: "For <@U…>" in a shared conversation; per question a section (`*2) Regions*`,
 * the question, the own answer the draft holds) and an actions block with its radio buttons
 * (single-select) or checkboxes (multi-select), selected as the shared draft says, and **Other…**; a
 * context with how to reply by text and the deadline; one actions block with **Send** and **Skip**.
 * At most 12 blocks (Slack allows 50).
 */
import { clipText, encodeAction, messagesFor, type QuestionRecord } from "@ask-user/core";
import type { types } from "@slack/bolt";
import {
  CHOICE_OPTIONS_MAX,
  OPTION_DESCRIPTION_MAX_CHARS,
  OPTION_TEXT_MAX_CHARS,
  SECTION_TEXT_MAX_CHARS,
} from "./limits.ts";
import {
  button,
  deadline,
  descriptionLines,
  escapeMrkdwn,
  escapeWithin,
  forLine,
  headline,
  type SlackMessage,
} from "./render.ts";

/** True when every question fits one radio button or checkbox group (at most 10 options each). */
export function formFits(record: QuestionRecord): boolean {
  return record.prompt.questions.every((q) => q.options.length <= CHOICE_OPTIONS_MAX);
}

/**
 * The `block_id` of a question's controls: new in every version of the record, because Slack's client
 * keeps what a person selected in a block it knows and shows `initial_option(s)` only for a new one
 * ("If a message is updated, use a new block_id").
 */
function choiceBlockId(token: string, version: number): string {
  return `ask_user.${token}.${version}`;
}

/** One question: its section (with the own answer so far) and its controls, selected as the draft says. */
function questionBlocks(record: QuestionRecord, index: number, locale: string): types.KnownBlock[] {
  const question = record.prompt.questions[index];
  const token = record.tokens[index];
  if (!question || token === undefined) throw new TypeError("renderForm: the record has no such question");
  const m = messagesFor(locale);
  const values = record.draft?.[question.id] ?? [];
  const labels = question.options.map((o) => o.label);
  const own = values.find((value) => !labels.includes(value));
  let text = headline(question, record.prompt.questions.length > 1 ? index + 1 : undefined);
  if (own !== undefined) {
    const head = `\n_${escapeMrkdwn(m.yourAnswer)}:_ `;
    text += `${head}${escapeWithin(own, Math.max(1, SECTION_TEXT_MAX_CHARS - text.length - head.length))}`;
  }
  const blocks: types.KnownBlock[] = [{ type: "section", text: { type: "mrkdwn", text } }];
  // Descriptions show under their options when all fit there (75); else all of them in a context.
  const inline = question.options.every((o) => (o.description ?? "").length <= OPTION_DESCRIPTION_MAX_CHARS);
  const described = inline ? undefined : descriptionLines(question);
  if (described) blocks.push({ type: "context", elements: [{ type: "mrkdwn", text: described }] });
  const options: types.PlainTextOption[] = question.options.map((option, i) => ({
    text: { type: "plain_text", text: clipText(option.label, OPTION_TEXT_MAX_CHARS), emoji: true },
    value: String(i),
    ...(inline && option.description
      ? { description: { type: "plain_text", text: option.description, emoji: true } }
      : {}),
  }));
  // The very option objects: Slack wants the initial ones to match an option exactly.
  const selected = options.filter((_, i) => values.includes(question.options[i]?.label ?? ""));
  const action_id = encodeAction(token, { kind: "choose" });
  const group: types.Checkboxes | types.RadioButtons = question.multiSelect
    ? {
        type: "checkboxes",
        action_id,
        options,
        ...(selected.length > 0 ? { initial_options: selected } : {}),
      }
    : { type: "radio_buttons", action_id, options, ...(selected[0] ? { initial_option: selected[0] } : {}) };
  blocks.push({
    type: "actions",
    block_id: choiceBlockId(token, record.version),
    elements: [group, button(m.other, encodeAction(token, { kind: "other" }))],
  });
  return blocks;
}

/** How to answer by text instead (as core's readable text says it), and the deadline. */
function footer(record: QuestionRecord, locale: string): string {
  const m = messagesFor(locale);
  const { questions } = record.prompt;
  const lines: string[] = [];
  if (questions.length > 1) {
    lines.push(m.howToReplySeveral(questions.map((_, i) => `${i + 1}: 1`).join("; ")));
  }
  if (questions.some((q) => q.multiSelect)) lines.push(m.howToReplyMulti);
  return [...lines.map(escapeMrkdwn), deadline(record, locale)].join("\n");
}

/**
 * The form, or `undefined` when a question has more options than a group holds (then the prompt is
 * core's readable text). `text` is the message's `text` (core's readable text, see `renderText`).
 * Controls: each group's `action_id` is core's `choose` data of its question (option `value` = its
 * index), Other… that question's `other` data, Send the `submit` data, Skip the `skip` data.
 */
export function renderForm(
  record: QuestionRecord,
  locale: string,
  options: { text: string; forName?: string },
): SlackMessage | undefined {
  if (!formFits(record)) return undefined;
  const first = record.tokens[0];
  if (first === undefined) throw new TypeError("renderForm: the record has no question");
  const m = messagesFor(locale);
  const blocks: types.KnownBlock[] = [];
  if (options.forName !== undefined) {
    blocks.push({ type: "section", text: { type: "mrkdwn", text: forLine(options.forName, locale) } });
  }
  record.prompt.questions.forEach((_, index) => {
    blocks.push(...questionBlocks(record, index, locale));
  });
  blocks.push({ type: "context", elements: [{ type: "mrkdwn", text: footer(record, locale) }] });
  blocks.push({
    type: "actions",
    block_id: `ask_user.${first}.send`,
    elements: [
      button(m.send, encodeAction(first, { kind: "submit" }), true),
      button(m.skip, encodeAction(first, { kind: "skip" })),
    ],
  });
  return { text: options.text, blocks };
}
