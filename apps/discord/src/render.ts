/**
 * Prompt → Discord message content and components, modals, summaries and notices. Pure: no client, no I/O.
 * Agent text is data: escaped for Discord markdown, `@everyone`/`@here` broken with a zero-width space,
 * and every message is sent with `allowedMentions: { parse: [] }` by the channel.
 */
import {
  encodeAction,
  isRecommended,
  messagesFor,
  type Prompt,
  type PromptQuestion,
  type QuestionRecord,
  renderPromptText,
  truncateGraphemes,
} from "@ask-user/core";
import {
  type APIActionRowComponent,
  type APIButtonComponentWithCustomId,
  type APIModalInteractionResponseCallbackData,
  ButtonStyle,
  ComponentType,
  TextInputStyle,
} from "discord.js";
import {
  BUTTON_LABEL_MAX_CHARS,
  BUTTONS_PER_ROW,
  MESSAGE_CONTENT_MAX_CHARS,
  MODAL_TITLE_MAX_CHARS,
  TEXT_INPUT_LABEL_MAX_CHARS,
  TEXT_INPUT_MAX_CHARS,
  TEXT_INPUT_PLACEHOLDER_MAX_CHARS,
} from "./limits.ts";

/** The `custom_id` of the modal's text input. */
export const ANSWER_INPUT_ID = "answer";

const ELLIPSIS = "…";

/** A message's content and components, ready for `channel.send` / `interaction.update`. */
export interface RenderedMessage {
  content: string;
  components: APIActionRowComponent<APIButtonComponentWithCustomId>[];
}

/** What the prompt renderers need besides the record. */
export interface PromptContext {
  locale: string;
  /** An extra line under the prompt (the missing-intent hint), already Discord markdown. */
  hint?: string;
}

/**
 * Escapes text for Discord markdown: inline markers, `<…>` (mentions, timestamps, links), line-start
 * headings, quotes and lists; and breaks `@everyone` / `@here`.
 *
 * @example escapeMarkdown("**@everyone** <@1>") // "\\*\\*@\u200beveryone\\*\\* \\<@1\\>"
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/[\\*_~`|<>[\]]/g, "\\$&")
    .replace(/^(\s*)([#+-])/gm, "$1\\$2")
    .replace(/^(\s*\d+)\.(?=\s)/gm, "$1\\.")
    .replace(/@(everyone|here)/gi, "@\u200b$1");
}

/** Length in code points, as Discord counts `content`. */
export function chars(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** `text` cut to `max` characters (code points, never splitting a grapheme), with "…" when cut. */
export function shorten(text: string, max: number): string {
  if (chars(text) <= max) return text;
  let cut = truncateGraphemes(text, Math.max(0, max - 1));
  while (chars(cut) > max - 1) cut = Array.from(cut).slice(0, -1).join("");
  return `${cut.replace(/\\$/, "")}${ELLIPSIS}`;
}

/** The deadline as Discord renders it for each reader: `14:05 (in 15 minutes)`. */
export function deadlineText(expiresAt: number): string {
  const seconds = Math.floor(expiresAt / 1000);
  return `<t:${seconds}:t> (<t:${seconds}:R>)`;
}

function footerOf(record: QuestionRecord, context: PromptContext): string {
  const m = messagesFor(context.locale);
  const lines = [`-# ${m.expiresAt(deadlineText(record.expiresAt))}`];
  if (context.hint !== undefined) lines.push(`-# ${context.hint}`);
  return lines.join("\n");
}

/** Joins body and footer, cutting the body (never the footer) to fit Discord's 2000 characters. */
function assemble(body: string, footer: string): string {
  const room = MESSAGE_CONTENT_MAX_CHARS - chars(footer) - 1;
  return `${shorten(body, room)}\n${footer}`;
}

/** Shortening steps, gentlest first: [description limit, question limit] (0 drops descriptions). */
const STEPS: Array<[number | undefined, number | undefined]> = [
  [undefined, undefined],
  [200, undefined],
  [80, undefined],
  [0, undefined],
  [0, 300],
  [0, 100],
];

function shortenPrompt(prompt: Prompt, descriptionMax?: number, questionMax?: number): Prompt {
  return {
    ...prompt,
    questions: prompt.questions.map((q) => ({
      ...q,
      question: questionMax === undefined ? q.question : shorten(q.question, questionMax),
      options: q.options.map((o) => {
        if (o.description === undefined || descriptionMax === undefined) return o;
        return descriptionMax === 0
          ? { label: o.label }
          : { label: o.label, description: shorten(o.description, descriptionMax) };
      }),
    })),
  };
}

/** Tries each shortening step until the content fits; the last resort cuts the body. */
function fitPrompt(prompt: Prompt, footer: string, body: (prompt: Prompt) => string): string {
  let last = "";
  for (const [descriptionMax, questionMax] of STEPS) {
    last = body(shortenPrompt(prompt, descriptionMax, questionMax));
    if (chars(last) + chars(footer) + 1 <= MESSAGE_CONTENT_MAX_CHARS) return `${last}\n${footer}`;
  }
  return assemble(last, footer);
}

function buttonBody(question: PromptQuestion): string {
  const lines = [`**${escapeMarkdown(question.header)}**`, escapeMarkdown(question.question)];
  if (question.options.some((o) => o.description !== undefined)) {
    for (const o of question.options) {
      const description = o.description === undefined ? "" : ` — ${escapeMarkdown(o.description)}`;
      lines.push(`• **${escapeMarkdown(o.label)}**${description}`);
    }
  }
  return lines.join("\n");
}

/** The action rows of a one-question prompt: the options (≤ 5 per row), then Other… and Skip. */
export function renderButtons(record: QuestionRecord, locale: string): RenderedMessage["components"] {
  const m = messagesFor(locale);
  const token = record.tokens[0];
  const question = record.prompt.questions[0];
  if (token === undefined || question === undefined) return [];
  const button = (
    label: string,
    customId: string,
    style: ButtonStyle.Primary | ButtonStyle.Secondary,
  ): APIButtonComponentWithCustomId => ({
    type: ComponentType.Button,
    style,
    label: shorten(label, BUTTON_LABEL_MAX_CHARS),
    custom_id: customId,
  });
  const options = question.options.map((o, index) =>
    button(
      o.label,
      encodeAction(token, { kind: "option", index }),
      isRecommended(o.label) ? ButtonStyle.Primary : ButtonStyle.Secondary,
    ),
  );
  const rows: RenderedMessage["components"] = [];
  for (let i = 0; i < options.length; i += BUTTONS_PER_ROW) {
    rows.push({ type: ComponentType.ActionRow, components: options.slice(i, i + BUTTONS_PER_ROW) });
  }
  rows.push({
    type: ComponentType.ActionRow,
    components: [
      button(m.other, encodeAction(token, { kind: "other" }), ButtonStyle.Secondary),
      button(m.skip, encodeAction(token, { kind: "skip" }), ButtonStyle.Secondary),
    ],
  });
  return rows;
}

/**
 * A prompt with one single-select question: header, question, options with their descriptions, the
 * deadline as a Discord timestamp, and the buttons.
 */
export function renderButtonPrompt(record: QuestionRecord, context: PromptContext): RenderedMessage {
  const footer = footerOf(record, context);
  const content = fitPrompt(record.prompt, footer, (prompt) =>
    prompt.questions[0] ? buttonBody(prompt.questions[0]) : "",
  );
  return { content, components: renderButtons(record, context.locale) };
}

/** Core's readable text, escaped, its UTC deadline line replaced by a Discord timestamp. */
function textBody(text: string, locale: string): string {
  const [before = "", after = ""] = messagesFor(locale).expiresAt("\u0000").split("\u0000");
  const lines = text.split("\n");
  const last = lines.at(-1) ?? "";
  if (lines.length > 1 && last.startsWith(before) && last.endsWith(after)) lines.pop();
  return escapeMarkdown(lines.join("\n").trimEnd());
}

/**
 * Any other prompt (several questions, multi-select): core's readable text (`text`), escaped, with the
 * deadline as a Discord timestamp; shortened (descriptions first) when over 2000 characters.
 */
export function renderTextPrompt(record: QuestionRecord, text: string, context: PromptContext): string {
  const footer = footerOf(record, context);
  const body = textBody(text, context.locale);
  if (chars(body) + chars(footer) + 1 <= MESSAGE_CONTENT_MAX_CHARS) return `${body}\n${footer}`;
  return fitPrompt(record.prompt, footer, (prompt) =>
    textBody(
      renderPromptText(prompt, { locale: context.locale, expiresAt: record.expiresAt }),
      context.locale,
    ),
  );
}

/** The Other… modal: one required paragraph input (≤ 4000) whose submission answers `question`. */
export function renderOtherModal(
  customId: string,
  question: PromptQuestion | undefined,
  locale: string,
): APIModalInteractionResponseCallbackData {
  const m = messagesFor(locale);
  return {
    custom_id: customId,
    title: shorten(question?.header ?? m.yourAnswer, MODAL_TITLE_MAX_CHARS),
    components: [
      {
        type: ComponentType.ActionRow,
        components: [
          {
            type: ComponentType.TextInput,
            custom_id: ANSWER_INPUT_ID,
            style: TextInputStyle.Paragraph,
            label: shorten(question?.question ?? m.yourAnswer, TEXT_INPUT_LABEL_MAX_CHARS),
            placeholder: shorten(m.yourAnswer, TEXT_INPUT_PLACEHOLDER_MAX_CHARS),
            required: true,
            max_length: TEXT_INPUT_MAX_CHARS,
          },
        ],
      },
    ],
  };
}

/** The line guild prompts carry while the bot cannot read ordinary messages (no Message Content intent). */
export function missingIntentHint(locale: string, botId: string): string {
  return messagesFor(locale).locale === "de"
    ? `Dieser Bot kann hier keine gewöhnlichen Nachrichten lesen: erwähne <@${botId}> in deiner Antwort oder antworte direkt auf diese Nachricht.`
    : `This bot cannot read ordinary messages here: mention <@${botId}> in your answer, or reply to this message.`;
}
