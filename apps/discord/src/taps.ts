/**
 * How a decided tap, select or modal submission is answered on Discord: the message updated in place
 * (to the summary, or to the form with its new selections), the Other… modal, or an ephemeral reply —
 * or, after a deferral, an edit or a follow-up.
 */
import {
  type DecodedAction,
  type InboundOutcome,
  isTerminal,
  type QuestionRecord,
} from "@ask-user/core/channel";
import {
  type ButtonInteraction,
  MessageFlags,
  type ModalMessageModalSubmitInteraction,
  type ModalSubmitInteraction,
  type StringSelectMenuInteraction,
} from "discord.js";
import { renderOtherModal } from "./other-modal.ts";
import { renderNotice, renderSummaryContent } from "./render/notice.ts";
import type { RenderedMessage } from "./render/prompt.ts";

/** A button tap, a string select or a modal submission (ours, or — standalone — one nobody answered). */
export type TapOrSubmit = ButtonInteraction | StringSelectMenuInteraction | ModalSubmitInteraction;

/** What the answer needs from the channel. */
export interface Responder {
  /** The channel's name (only its users are named by mention in summaries). */
  channel: string;
  /** The form message for a record as it stands, in this interaction's conversation. */
  form(record: QuestionRecord): RenderedMessage;
}

/** What the message shows after the answer: the summary, the re-rendered form, or nothing new. */
export type Shown = "summary" | { record: QuestionRecord; message: RenderedMessage } | undefined;

const NO_MENTIONS = { parse: [] } as const;

/** Whether the outcome ended the question (the message then shows the summary). */
function resolves(outcome: InboundOutcome): boolean {
  return (outcome.kind === "answered" || outcome.kind === "skipped") && isTerminal(outcome.record.status);
}

/** The interaction as one that can update its message (a component, or a modal sent from one). */
function boundToMessage(
  interaction: TapOrSubmit,
): ButtonInteraction | StringSelectMenuInteraction | ModalMessageModalSubmitInteraction | undefined {
  if (interaction.isMessageComponent()) return interaction;
  return interaction.isFromMessage() ? interaction : undefined;
}

function summaryOf(outcome: InboundOutcome, channel: string): string {
  return "record" in outcome && outcome.record ? renderSummaryContent(outcome.record, channel) : "";
}

/** The modal for an Other… tap: for the tapped question when known, else a generic one. */
export function modalFor(interaction: TapOrSubmit, decoded: DecodedAction, outcome?: InboundOutcome) {
  const record = outcome && "record" in outcome ? outcome.record : undefined;
  const index = record ? record.tokens.indexOf(decoded.token) : -1;
  const question = record?.prompt.questions[index];
  return renderOtherModal(interaction.customId, question, interaction.locale);
}

/** The message's new look for an outcome on a control bound to it, if it changes. */
function nextLook(responder: Responder, outcome: InboundOutcome): Shown {
  if (resolves(outcome)) return "summary";
  if (outcome.kind === "staged") return { record: outcome.record, message: responder.form(outcome.record) };
  return undefined;
}

function messageBody(responder: Responder, outcome: InboundOutcome, shown: Exclude<Shown, undefined>) {
  return shown === "summary"
    ? { content: summaryOf(outcome, responder.channel), components: [], allowedMentions: NO_MENTIONS }
    : { ...shown.message, allowedMentions: NO_MENTIONS };
}

/** Answers a decided interaction in time: update in place, modal, or an ephemeral reply. */
export async function answer(
  responder: Responder,
  interaction: TapOrSubmit,
  decoded: DecodedAction,
  outcome: InboundOutcome,
): Promise<Shown> {
  if (outcome.kind === "awaiting_text" && interaction.isButton()) {
    await interaction.showModal(modalFor(interaction, decoded, outcome));
    return undefined;
  }
  const bound = boundToMessage(interaction);
  const shown = bound ? nextLook(responder, outcome) : undefined;
  if (bound && shown !== undefined) {
    await bound.update(messageBody(responder, outcome, shown));
    return shown;
  }
  const text = "text" in outcome ? outcome.text : "";
  await interaction.reply({
    content: renderNotice(text),
    flags: MessageFlags.Ephemeral,
    allowedMentions: NO_MENTIONS,
  });
  return undefined;
}

/**
 * Answers after a deferral: edit the message (it was deferred as an update) to the summary or the form,
 * or an ephemeral follow-up.
 */
export async function answerDeferred(
  responder: Responder,
  interaction: TapOrSubmit,
  outcome: InboundOutcome,
  asUpdate: boolean,
): Promise<Shown> {
  const shown = asUpdate ? nextLook(responder, outcome) : undefined;
  if (shown !== undefined) {
    await interaction.editReply(messageBody(responder, outcome, shown));
    return shown;
  }
  const content = renderNotice("text" in outcome ? outcome.text : "");
  if (asUpdate) {
    await interaction.followUp({ content, flags: MessageFlags.Ephemeral, allowedMentions: NO_MENTIONS });
  } else {
    await interaction.editReply({ content, allowedMentions: NO_MENTIONS });
  }
  return undefined;
}
