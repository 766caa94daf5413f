/**
 * Core's prompt view → a Discord message: content (markdown, within 2000 characters) and components —
 * buttons for one single-select question, a string select per question for a form, none for text.
 * Pure: no client, no I/O. Agent text is data: escaped, `@everyone`/`@here` broken with a zero-width
 * space, and every message is sent with `allowedMentions: { parse: [] }` by the channel.
 */
import {
  buildPromptView,
  type ControlView,
  clipLongestFirst,
  fitView,
  isForm,
  messagesFor,
  type PromptView,
  type QuestionRecord,
  type QuestionView,
  renderViewText,
} from "@ask-user/core/channel";
import {
  type APIActionRowComponent,
  type APIButtonComponentWithCustomId,
  type APIComponentInMessageActionRow,
  type APIStringSelectComponent,
  ButtonStyle,
  ComponentType,
} from "discord.js";
import {
  ACTION_ROWS_MAX,
  BUTTON_LABEL_MAX_CHARS,
  BUTTONS_PER_ROW,
  MESSAGE_CONTENT_MAX_CHARS,
  SELECT_OPTION_DESCRIPTION_MAX_CHARS,
  SELECT_OPTION_LABEL_MAX_CHARS,
  SELECT_OPTIONS_MAX,
  SELECT_PLACEHOLDER_MAX_CHARS,
  SELECTED_LINE_MAX_CHARS,
} from "../limits.ts";
import { chars, deadlineText, escapeMarkdown, nameContent, shorten } from "./markdown.ts";

/** Ready for a REST send or `interaction.update`. */
export interface RenderedMessage {
  content: string;
  components: APIActionRowComponent<APIComponentInMessageActionRow>[];
}

export type ButtonRows = APIActionRowComponent<APIButtonComponentWithCustomId>[];

/**
 * Core's view with Discord's limits: a form is a select per question, at most four questions of ≤ 25
 * options. Every question stays on the message (`shown` 0: no stepping), so Skip and Send carry the
 * first question's token.
 */
export function discordView(record: QuestionRecord, buttons: boolean, forName?: string): PromptView {
  return buildPromptView(record, {
    buttons,
    forms: { maxOptions: SELECT_OPTIONS_MAX, maxQuestions: ACTION_ROWS_MAX - 1 },
    shown: 0,
    forName,
  });
}

const button = ({ label, action }: ControlView, primary = false): APIButtonComponentWithCustomId => ({
  type: ComponentType.Button,
  style: primary ? ButtonStyle.Primary : ButtonStyle.Secondary,
  label: shorten(label, BUTTON_LABEL_MAX_CHARS),
  custom_id: action,
});

function row<C extends APIComponentInMessageActionRow>(components: C[]): APIActionRowComponent<C> {
  return { type: ComponentType.ActionRow, components };
}

/** "For <@id>": the audience line with the name kept a mention (shown as the name, never a ping). */
function audienceLine(view: PromptView): string | undefined {
  if (!view.audience) return undefined;
  const { name, line } = view.audience;
  const at = line.indexOf(name);
  if (at === -1) return escapeMarkdown(line);
  return `${escapeMarkdown(line.slice(0, at))}${nameContent(name)}${escapeMarkdown(line.slice(at + name.length))}`;
}

/** The header in bold, the question, the options when any has a description (the buttons carry labels). */
function buttonBody(view: PromptView): string {
  const question = view.questions[0];
  if (!question) return "";
  const lines = [`**${escapeMarkdown(question.header)}**`, escapeMarkdown(question.question)];
  if (question.options.some((o) => o.description !== undefined)) {
    for (const o of question.options) {
      const description = o.description === undefined ? "" : ` — ${escapeMarkdown(o.description)}`;
      lines.push(`• **${escapeMarkdown(o.label)}**${description}`);
    }
  }
  return lines.join("\n");
}

/** Core's readable text, escaped, without its "For …" lines and its UTC deadline line (ours follow). */
function textBody(view: PromptView): string {
  const { audience: _, ...rest } = view;
  const lines = renderViewText(rest).split("\n");
  lines.pop();
  return escapeMarkdown(lines.join("\n").trimEnd());
}

/** "Selected: Env: Staging · Regions: EU, Asia": every answered header kept, the longest values cut first. */
function selectedLine(view: PromptView): string[] {
  const answered = view.status.filter((line) => line.answered);
  if (!isForm(view) || answered.length === 0) return [];
  const m = messagesFor(view.locale);
  const line = (values: string[]) =>
    m.selected(
      view.questions.length === 1
        ? (values[0] ?? "")
        : answered.map((s, i) => `${s.header}: ${values[i] ?? ""}`).join(" · "),
    );
  const values = answered.map((s) => s.values ?? "");
  const budget = SELECTED_LINE_MAX_CHARS - line(values.map(() => "")).length;
  return [shorten(escapeMarkdown(line(clipLongestFirst(values, budget))), SELECTED_LINE_MAX_CHARS)];
}

/** "For <@id>", the body, and a footer that is never cut: a form's "Selected: …", the deadline, the hint. */
function partsOf(view: PromptView, hint: string | undefined): [string[], string, string[]] {
  const head = audienceLine(view);
  const body = view.layout === "buttons" ? buttonBody(view) : textBody(view);
  const m = messagesFor(view.locale);
  const footer = [...selectedLine(view), `-# ${m.expiresAt(deadlineText(view.expires.at))}`];
  if (hint !== undefined) footer.push(`-# ${hint}`);
  return [head === undefined ? [] : [head], body, footer];
}

/** The action rows of one question's buttons: the options (≤ 5 per row), then Other… and Skip. */
export function renderButtons(view: PromptView): ButtonRows {
  const question = view.questions[0];
  if (view.layout !== "buttons" || !question) return [];
  const options = question.options.map((o) => button(o, o.recommended));
  const rows: ButtonRows = [];
  for (let i = 0; i < options.length; i += BUTTONS_PER_ROW)
    rows.push(row(options.slice(i, i + BUTTONS_PER_ROW)));
  return [...rows, row([button(question.other), button(view.controls.skip)])];
}

/** Option indexes as values, the draft's picks as defaults, the header as placeholder. */
function selectOf(question: QuestionView): APIStringSelectComponent {
  return {
    type: ComponentType.StringSelect,
    custom_id: question.choose,
    placeholder: shorten(question.header, SELECT_PLACEHOLDER_MAX_CHARS),
    min_values: 0,
    max_values: question.multiSelect ? question.options.length : 1,
    options: question.options.map((option) => ({
      label: shorten(option.label, SELECT_OPTION_LABEL_MAX_CHARS),
      value: String(option.index),
      ...(option.description === undefined
        ? {}
        : { description: shorten(option.description, SELECT_OPTION_DESCRIPTION_MAX_CHARS) }),
      ...(option.picked ? { default: true } : {}),
    })),
  };
}

/** A select per question, then Other… per question when the row has room, Skip and Send (Primary). */
export function renderFormComponents(view: PromptView): RenderedMessage["components"] {
  const { questions, controls } = view;
  if (view.layout !== "form" || !controls.send) return [];
  const other = ({ header, other }: QuestionView) =>
    button(questions.length === 1 ? other : { ...other, label: `${header}: ${other.label}` });
  const others = questions.length + 2 <= BUTTONS_PER_ROW ? questions.map(other) : [];
  const buttons = row([...others, button(controls.skip), button(controls.send, true)]);
  return [...questions.map((question) => row([selectOf(question)])), buttons];
}

/**
 * Content shortened by core's ladder (`fitView`: long answers, descriptions, question texts) to 2000
 * characters, controls from the whole view; `hint` (markdown) is a line under the deadline.
 */
export function renderPrompt(view: PromptView, hint?: string): RenderedMessage {
  const fits = (v: PromptView) => chars(partsOf(v, hint).flat().join("\n")) <= MESSAGE_CONTENT_MAX_CHARS;
  const components = view.layout === "buttons" ? renderButtons(view) : renderFormComponents(view);
  // Only the body is cut, as a last resort, to fit.
  const [head, body, footer] = partsOf(fitView(view, fits), hint);
  const room = MESSAGE_CONTENT_MAX_CHARS - chars([...head, ...footer].join("\n")) - 1;
  return { content: [...head, shorten(body, room), ...footer].join("\n"), components };
}

/** The line guild prompts carry while the bot cannot read ordinary messages (no Message Content intent). */
export const missingIntentHint = (locale: string, botId: string) =>
  messagesFor(locale).mentionToAnswer(`<@${botId}>`);

/** For core's form state (`PromptMessages`): equal keys, no edit. */
export function samenessOf(message: RenderedMessage): string {
  return JSON.stringify([message.content, message.components]);
}
