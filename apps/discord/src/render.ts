/**
 * Prompt → Discord message content, and a one-question prompt's buttons. Pure: no client, no I/O.
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
} from "@ask-user/core";
import {
  type APIActionRowComponent,
  type APIButtonComponentWithCustomId,
  type APIComponentInMessageActionRow,
  ButtonStyle,
  ComponentType,
} from "discord.js";
import { BUTTON_LABEL_MAX_CHARS, BUTTONS_PER_ROW, MESSAGE_CONTENT_MAX_CHARS } from "./limits.ts";
import { chars, deadlineText, escapeMarkdown, nameContent, shorten } from "./markdown.ts";

/** A message's content and components, ready for `channel.send` / `interaction.update`. */
export interface RenderedMessage {
  content: string;
  components: APIActionRowComponent<APIComponentInMessageActionRow>[];
}

/** What the prompt renderers need besides the record. */
export interface PromptContext {
  locale: string;
  /** An extra line under the prompt (the missing-intent hint), already Discord markdown. */
  hint?: string;
  /**
   * Who may answer, in a shared conversation (`DeliverRequest.forName`): the prompt starts with
   * "For <@id>" (a mention stays one: shown as the name, never a ping).
   */
  forName?: string;
}

/** Lines above the deadline that are never cut (a form's "Selected: …"), already Discord markdown. */
type Extra = string[];

/** A button of a prompt, its label cut to Discord's 80 characters. */
export function promptButton(
  label: string,
  customId: string,
  style: ButtonStyle.Primary | ButtonStyle.Secondary,
): APIButtonComponentWithCustomId {
  return {
    type: ComponentType.Button,
    style,
    label: shorten(label, BUTTON_LABEL_MAX_CHARS),
    custom_id: customId,
  };
}

/** "For <@id>", the first line of a prompt in a shared conversation. */
function forLine(context: PromptContext): string | undefined {
  if (context.forName === undefined) return undefined;
  const [before = "", after = ""] = messagesFor(context.locale).forWhom("\u0000").split("\u0000");
  return `${escapeMarkdown(before)}${nameContent(context.forName)}${escapeMarkdown(after)}`;
}

function footerOf(record: QuestionRecord, context: PromptContext, extra: Extra): string {
  const m = messagesFor(context.locale);
  const lines = [...extra, `-# ${m.expiresAt(deadlineText(record.expiresAt))}`];
  if (context.hint !== undefined) lines.push(`-# ${context.hint}`);
  return lines.join("\n");
}

/** Joins the "For" line, body and footer, cutting the body (never the rest) to fit 2000 characters. */
function assemble(head: string | undefined, body: string, footer: string): string {
  const fixed = chars(footer) + 1 + (head === undefined ? 0 : chars(head) + 1);
  const cut = shorten(body, MESSAGE_CONTENT_MAX_CHARS - fixed);
  return [...(head === undefined ? [] : [head]), cut, footer].join("\n");
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
function fitPrompt(
  prompt: Prompt,
  head: string | undefined,
  footer: string,
  body: (prompt: Prompt) => string,
): string {
  const fixed = chars(footer) + 1 + (head === undefined ? 0 : chars(head) + 1);
  let last = "";
  for (const [descriptionMax, questionMax] of STEPS) {
    last = body(shortenPrompt(prompt, descriptionMax, questionMax));
    if (chars(last) + fixed <= MESSAGE_CONTENT_MAX_CHARS) break;
  }
  return assemble(head, last, footer);
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

/** Action rows of buttons only. */
export type ButtonRows = APIActionRowComponent<APIButtonComponentWithCustomId>[];

/** The action rows of a one-question prompt: the options (≤ 5 per row), then Other… and Skip. */
export function renderButtons(record: QuestionRecord, locale: string): ButtonRows {
  const m = messagesFor(locale);
  const token = record.tokens[0];
  const question = record.prompt.questions[0];
  if (token === undefined || question === undefined) return [];
  const options = question.options.map((o, index) =>
    promptButton(
      o.label,
      encodeAction(token, { kind: "option", index }),
      isRecommended(o.label) ? ButtonStyle.Primary : ButtonStyle.Secondary,
    ),
  );
  const rows: ButtonRows = [];
  for (let i = 0; i < options.length; i += BUTTONS_PER_ROW) {
    rows.push({ type: ComponentType.ActionRow, components: options.slice(i, i + BUTTONS_PER_ROW) });
  }
  rows.push({
    type: ComponentType.ActionRow,
    components: [
      promptButton(m.other, encodeAction(token, { kind: "other" }), ButtonStyle.Secondary),
      promptButton(m.skip, encodeAction(token, { kind: "skip" }), ButtonStyle.Secondary),
    ],
  });
  return rows;
}

/**
 * A prompt with one single-select question: "For <@id>" in a shared conversation, header, question,
 * options with their descriptions, the deadline as a Discord timestamp, and the buttons.
 */
export function renderButtonPrompt(record: QuestionRecord, context: PromptContext): RenderedMessage {
  const footer = footerOf(record, context, []);
  const content = fitPrompt(record.prompt, forLine(context), footer, (prompt) =>
    prompt.questions[0] ? buttonBody(prompt.questions[0]) : "",
  );
  return { content, components: renderButtons(record, context.locale) };
}

/**
 * Core's readable text, escaped: its "For …" lines (the channel writes its own, with the mention kept)
 * and its UTC deadline line (replaced by a Discord timestamp) removed.
 */
function textBody(text: string, context: PromptContext): string {
  const m = messagesFor(context.locale);
  const [before = "", after = ""] = m.expiresAt("\u0000").split("\u0000");
  const lines = text.split("\n");
  const last = lines.at(-1) ?? "";
  if (lines.length > 1 && last.startsWith(before) && last.endsWith(after)) lines.pop();
  if (context.forName !== undefined && lines[0] === m.forWhom(context.forName)) {
    lines.splice(0, lines[1] === "" ? 2 : 1);
  }
  return escapeMarkdown(lines.join("\n").trimEnd());
}

/**
 * Any other prompt (several questions, multi-select): core's readable text (`text`), escaped, with the
 * deadline as a Discord timestamp; shortened (descriptions first) when over 2000 characters. `extra`
 * lines (a form's "Selected: …") go above the deadline and are never cut.
 */
export function renderTextPrompt(
  record: QuestionRecord,
  text: string,
  context: PromptContext,
  extra: Extra = [],
): string {
  const head = forLine(context);
  const footer = footerOf(record, context, extra);
  const body = textBody(text, context);
  const fixed = chars(footer) + 1 + (head === undefined ? 0 : chars(head) + 1);
  if (chars(body) + fixed <= MESSAGE_CONTENT_MAX_CHARS) return assemble(head, body, footer);
  return fitPrompt(record.prompt, head, footer, (prompt) =>
    textBody(renderPromptText(prompt, { locale: context.locale, expiresAt: record.expiresAt }), context),
  );
}

/** The line guild prompts carry while the bot cannot read ordinary messages (no Message Content intent). */
export function missingIntentHint(locale: string, botId: string): string {
  return messagesFor(locale).locale === "de"
    ? `Dieser Bot kann hier keine gewöhnlichen Nachrichten lesen: erwähne <@${botId}> in deiner Antwort oder antworte direkt auf diese Nachricht.`
    : `This bot cannot read ordinary messages here: mention <@${botId}> in your answer, or reply to this message.`;
}
