/**
 * A form (several questions, or a multi-select one) as a Discord message: the readable text — still
 * answerable by a text reply — with a "Selected: …" line for the shared draft, one string select per
 * question, then one row of buttons: Other… per question, Skip and Send. Pure: no client, no I/O.
 */
import {
  encodeAction,
  messagesFor,
  type Prompt,
  type QuestionRecord,
  renderAnswers,
  renderPromptText,
} from "@ask-user/core";
import { type APIStringSelectComponent, ButtonStyle, ComponentType } from "discord.js";
import {
  ACTION_ROWS_MAX,
  BUTTONS_PER_ROW,
  SELECT_OPTION_DESCRIPTION_MAX_CHARS,
  SELECT_OPTION_LABEL_MAX_CHARS,
  SELECT_OPTIONS_MAX,
  SELECT_PLACEHOLDER_MAX_CHARS,
  SELECTED_LINE_MAX_CHARS,
} from "./limits.ts";
import { escapeMarkdown, shorten } from "./markdown.ts";
import { type PromptContext, promptButton, type RenderedMessage, renderTextPrompt } from "./render.ts";

/**
 * True when the prompt fits Discord's controls: every question in a string select (at most 25 options)
 * and one select per question plus a row of buttons within five action rows. Otherwise the prompt is
 * readable text only.
 */
export function formFits(prompt: Prompt): boolean {
  return (
    prompt.questions.length + 1 <= ACTION_ROWS_MAX &&
    prompt.questions.every((q) => q.options.length <= SELECT_OPTIONS_MAX)
  );
}

/** One question's string select: `choose` payload, option index as value, the draft's picks selected. */
function selectOf(record: QuestionRecord, index: number): APIStringSelectComponent | undefined {
  const question = record.prompt.questions[index];
  const token = record.tokens[index];
  if (!question || token === undefined) return undefined;
  const picked = new Set(record.draft?.[question.id] ?? []);
  return {
    type: ComponentType.StringSelect,
    custom_id: encodeAction(token, { kind: "choose" }),
    placeholder: shorten(question.header, SELECT_PLACEHOLDER_MAX_CHARS),
    min_values: 0,
    max_values: question.multiSelect ? question.options.length : 1,
    options: question.options.map((option, value) => ({
      label: shorten(option.label, SELECT_OPTION_LABEL_MAX_CHARS),
      value: String(value),
      ...(option.description === undefined
        ? {}
        : { description: shorten(option.description, SELECT_OPTION_DESCRIPTION_MAX_CHARS) }),
      ...(picked.has(option.label) ? { default: true } : {}),
    })),
  };
}

/**
 * A form's action rows: one string select per question (`min_values` 0; `max_values` 1, or the option
 * count for a multi-select question; the draft's picks as defaults; the header as placeholder), then
 * Other… per question when the row has room, Skip and Send. Empty when the form does not fit
 * ({@link formFits}).
 */
export function renderFormComponents(record: QuestionRecord, locale: string): RenderedMessage["components"] {
  const { questions } = record.prompt;
  const first = record.tokens[0];
  if (!formFits(record.prompt) || first === undefined) return [];
  const m = messagesFor(locale);
  const rows: RenderedMessage["components"] = [];
  questions.forEach((_, index) => {
    const select = selectOf(record, index);
    if (select) rows.push({ type: ComponentType.ActionRow, components: [select] });
  });
  const others =
    questions.length + 2 <= BUTTONS_PER_ROW
      ? questions.flatMap((question, index) => {
          const token = record.tokens[index];
          const label = questions.length === 1 ? m.other : `${question.header}: ${m.other}`;
          return token === undefined
            ? []
            : [promptButton(label, encodeAction(token, { kind: "other" }), ButtonStyle.Secondary)];
        })
      : [];
  rows.push({
    type: ComponentType.ActionRow,
    components: [
      ...others,
      promptButton(m.skip, encodeAction(first, { kind: "skip" }), ButtonStyle.Secondary),
      promptButton(m.send, encodeAction(first, { kind: "submit" }), ButtonStyle.Primary),
    ],
  });
  return rows;
}

/** "Selected: Env: Staging · Regions: EU, Asia" while the draft has anything, escaped and bounded. */
function selectedLine(record: QuestionRecord, locale: string): string[] {
  const draft = record.draft;
  if (!draft || Object.keys(draft).length === 0) return [];
  const line = messagesFor(locale).selected(renderAnswers(record.prompt, draft, locale));
  return [shorten(escapeMarkdown(line), SELECTED_LINE_MAX_CHARS)];
}

/**
 * A form prompt as a message: core's readable text (with "For <@id>" in a shared conversation), the
 * draft's "Selected: …" line, the deadline, and the controls of {@link renderFormComponents}. Rendered
 * from the record alone, so the first delivery and every later refresh give the same message for the
 * same draft.
 */
export function renderFormPrompt(record: QuestionRecord, context: PromptContext): RenderedMessage {
  const text = renderPromptText(record.prompt, {
    locale: context.locale,
    expiresAt: record.expiresAt,
    ...(context.forName === undefined ? {} : { forName: context.forName }),
  });
  return {
    content: renderTextPrompt(record, text, context, selectedLine(record, context.locale)),
    components: renderFormComponents(record, context.locale),
  };
}
