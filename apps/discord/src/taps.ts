/**
 * How a decided tap, select or modal submission is answered on Discord: the message updated in place
 * (to the summary, or to the form with its new selections), the Other… modal, or an ephemeral reply —
 * or, after a deferral, an edit or a follow-up.
 */
import {
  type DecodedAction,
  type InboundOutcome,
  isTerminal,
  type PromptMessages,
  type QuestionRecord,
} from "@ask-user/core/channel";
import {
  type ButtonInteraction,
  MessageFlags,
  type ModalSubmitInteraction,
  type StringSelectMenuInteraction,
} from "discord.js";
import { renderOtherModal } from "./other-modal.ts";
import { renderNotice, renderSummaryContent } from "./render/notice.ts";
import { type RenderedMessage, samenessOf } from "./render/prompt.ts";

/** A button tap, a string select or a modal submission (ours, or — standalone — one nobody answered). */
export type TapOrSubmit = ButtonInteraction | StringSelectMenuInteraction | ModalSubmitInteraction;

export interface Responder {
  name: string;
  messages: PromptMessages;
  /** The form message for a record as it stands, in a DM or a guild channel. */
  form(record: QuestionRecord, dm: boolean): RenderedMessage;
}

/** What the message shows after the answer (the summary, or the re-rendered form), or nothing new. */
type Shown = { record: QuestionRecord; message: RenderedMessage; summary: boolean } | undefined;

const NO_MENTIONS = { parse: [] } as const;

/** The interaction as one that updates its message (a component, or a modal sent from one). */
export function boundToMessage(interaction: TapOrSubmit) {
  return interaction.isMessageComponent() || interaction.isFromMessage() ? interaction : undefined;
}

/** The modal for an Other… tap: for the tapped question when known, else a generic one. */
export function modalFor(interaction: TapOrSubmit, decoded: DecodedAction, outcome?: InboundOutcome) {
  const record = outcome && "record" in outcome ? outcome.record : undefined;
  const question = record?.prompt.questions[record.tokens.indexOf(decoded.token)];
  return renderOtherModal(interaction.customId, question, interaction.locale);
}

function nextLook(responder: Responder, outcome: InboundOutcome, dm: boolean): Shown {
  if (outcome.kind === "staged")
    return { record: outcome.record, message: responder.form(outcome.record, dm), summary: false };
  if ((outcome.kind !== "answered" && outcome.kind !== "skipped") || !isTerminal(outcome.record.status))
    return undefined;
  const message = { content: renderSummaryContent(outcome.record, responder.name), components: [] };
  return { record: outcome.record, message, summary: true };
}

/**
 * Answers a decided interaction: the Other… modal, its message updated in place, or an ephemeral
 * notice. After a deferral (`deferred`) the update is an edit of the deferred response, the notice a
 * follow-up (or, for a deferred ephemeral reply, its edit). True when the message now shows the summary.
 */
export async function answer(
  responder: Responder,
  interaction: TapOrSubmit,
  decoded: DecodedAction,
  outcome: InboundOutcome,
  deferred = false,
): Promise<boolean> {
  if (!deferred && outcome.kind === "awaiting_text" && interaction.isButton()) {
    await interaction.showModal(modalFor(interaction, decoded, outcome));
    return false;
  }
  const bound = boundToMessage(interaction);
  const shown = bound && nextLook(responder, outcome, interaction.guildId === null);
  if (bound && shown) {
    const update = { ...shown.message, allowedMentions: NO_MENTIONS };
    await (deferred ? interaction.editReply(update) : bound.update(update));
    // What this tap shows: `refresh` does not send it again.
    if (!shown.summary) responder.messages.sent(bound.message.id, shown.record, samenessOf(shown.message));
    return shown.summary;
  }
  const notice = {
    content: renderNotice("text" in outcome ? outcome.text : ""),
    allowedMentions: NO_MENTIONS,
  };
  if (!deferred) await interaction.reply({ ...notice, flags: MessageFlags.Ephemeral });
  else if (bound) await interaction.followUp({ ...notice, flags: MessageFlags.Ephemeral });
  else await interaction.editReply(notice);
  return false;
}
