/**
 * How a decided tap or modal submission is answered on Discord: the message updated in place to the
 * summary, the Other… modal, or an ephemeral reply — or, after a deferral, an edit or a follow-up.
 */
import { type DecodedAction, type InboundOutcome, isTerminal, renderSummary } from "@ask-user/core";
import { type ButtonInteraction, MessageFlags, type ModalSubmitInteraction } from "discord.js";
import { renderNotice, renderSummaryNotice } from "./notice.ts";
import { renderOtherModal } from "./render.ts";

/** A button tap or a modal submission (ours, or — standalone — one nobody answered). */
export type TapOrSubmit = ButtonInteraction | ModalSubmitInteraction;

const NO_MENTIONS = { parse: [] } as const;

/** Whether the outcome ended the question (the message then shows the summary). */
function resolves(outcome: InboundOutcome): outcome is Extract<InboundOutcome, { record: unknown }> {
  return (outcome.kind === "answered" || outcome.kind === "skipped") && isTerminal(outcome.record.status);
}

function summaryOf(outcome: InboundOutcome, channel: string): string {
  if (!("record" in outcome) || !outcome.record) return "";
  const record = outcome.record;
  return renderSummaryNotice(renderSummary(record, { locale: record.locale }), record.resolvedBy, channel);
}

/** The modal for an Other… tap: for the tapped question when known, else a generic one. */
export function modalFor(interaction: TapOrSubmit, decoded: DecodedAction, outcome?: InboundOutcome) {
  const record = outcome && "record" in outcome ? outcome.record : undefined;
  const index = record ? record.tokens.indexOf(decoded.token) : -1;
  const question = record?.prompt.questions[index];
  return renderOtherModal(interaction.customId, question, interaction.locale);
}

/** Answers a decided tap or submission in time: update in place, modal, or an ephemeral reply. */
export async function answer(
  channel: string,
  interaction: TapOrSubmit,
  decoded: DecodedAction,
  outcome: InboundOutcome,
): Promise<boolean> {
  if (outcome.kind === "awaiting_text" && interaction.isButton()) {
    await interaction.showModal(modalFor(interaction, decoded, outcome));
    return false;
  }
  const bound = interaction.isButton() || interaction.isFromMessage();
  if (resolves(outcome) && bound) {
    await interaction.update({
      content: summaryOf(outcome, channel),
      components: [],
      allowedMentions: NO_MENTIONS,
    });
    return true;
  }
  const text = "text" in outcome ? outcome.text : "";
  await interaction.reply({
    content: renderNotice(text),
    flags: MessageFlags.Ephemeral,
    allowedMentions: NO_MENTIONS,
  });
  return false;
}

/** Answers after a deferral: edit the message (it was deferred as an update), or an ephemeral follow-up. */
export async function answerDeferred(
  channel: string,
  interaction: TapOrSubmit,
  outcome: InboundOutcome,
  asUpdate: boolean,
): Promise<boolean> {
  if (resolves(outcome) && asUpdate) {
    await interaction.editReply({
      content: summaryOf(outcome, channel),
      components: [],
      allowedMentions: NO_MENTIONS,
    });
    return true;
  }
  const content = renderNotice("text" in outcome ? outcome.text : "");
  if (asUpdate) {
    await interaction.followUp({ content, flags: MessageFlags.Ephemeral, allowedMentions: NO_MENTIONS });
  } else {
    await interaction.editReply({ content, allowedMentions: NO_MENTIONS });
  }
  return false;
}
