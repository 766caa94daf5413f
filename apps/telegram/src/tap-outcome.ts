/**
 * What a person sees after a tap: the answer to the callback query (a toast, or an alert for a refusal),
 * then what the outcome needs — a form edited to show the question the tap chose, a force-reply for
 * Other…, or a late refusal as a reply (when the 2 s deadline answered the tap without text already).
 */
import {
  type AskUserBroker,
  type AskUserLogger,
  describeError,
  type InboundOutcome,
  isForm,
} from "@ask-user/core";
import type { Api } from "grammy";
import type { Chat, Message, User } from "grammy/types";
import { formatConversation, type TelegramConversation, threadOptions } from "./conversation.ts";
import type { FormMessages } from "./form-messages.ts";
import { CALLBACK_ANSWER_TEXT_MAX_CHARS, INPUT_FIELD_PLACEHOLDER_MAX_CHARS } from "./limits.ts";
import { clip, escapeHtml, renderPlain } from "./render.ts";
import type { Tap } from "./tap.ts";

/** Where a message to the person who tapped goes: a reply to the question message, in its topic. */
export interface TapPlace {
  chat: TelegramConversation;
  chatType: Chat["type"];
  questionMessageId: number;
  from: User;
}

/** What showing an outcome needs from the channel. */
export interface TapOutcomeDeps {
  name: string;
  api: Api;
  logger: AskUserLogger;
  broker: AskUserBroker;
  forms: FormMessages;
}

/** An outcome the channel shows (anything but `ignored`). */
export type ShownOutcome = Exclude<InboundOutcome, { kind: "ignored" }>;

/** True when the tap's message is a form to show again: a control staged, or Send found gaps. */
export function showsForm(
  outcome: ShownOutcome,
): outcome is Extract<ShownOutcome, { kind: "staged" | "invalid" }> {
  return outcome.kind === "staged" || (outcome.kind === "invalid" && isForm(outcome.record.prompt));
}

/** In groups, the tapper's name as a link that reaches them (`tg://user?id=`); nothing in private. */
function mentionOf(place: TapPlace): string {
  if (place.chatType === "private") return "";
  return `<a href="tg://user?id=${place.from.id}">${escapeHtml(clip(place.from.first_name, 64))}</a>: `;
}

/** Shows tap outcomes (see the module comment). */
export function createTapOutcomes(
  deps: TapOutcomeDeps,
): (tap: Tap, place: TapPlace, outcome: ShownOutcome) => Promise<void> {
  const { name, api, logger, broker, forms } = deps;

  /** A late refusal of a tap, as a reply to the question message. */
  async function tellTapper(place: TapPlace, text: string): Promise<void> {
    try {
      await api.sendMessage(place.chat.chatId, `${mentionOf(place)}${renderPlain(text, 3000)}`, {
        parse_mode: "HTML",
        link_preview_options: { is_disabled: true },
        ...threadOptions(place.chat),
        reply_parameters: { message_id: place.questionMessageId, allow_sending_without_reply: true },
      });
    } catch (error) {
      logger.warn({ channel: name, err: describeError(error) }, "could not tell a late tap's refusal");
    }
  }

  /**
   * Other…: a force-reply to the question message, selective, with the placeholder. In groups it
   * mentions the tapper, because a selective force-reply reaches only mentioned users (and the author of
   * the replied-to message, which is the bot here).
   */
  async function askForText(
    place: TapPlace,
    outcome: Extract<InboundOutcome, { kind: "awaiting_text" }>,
  ): Promise<void> {
    const { chat } = place;
    let sent: Message.TextMessage;
    try {
      sent = await api.sendMessage(chat.chatId, `${mentionOf(place)}${renderPlain(outcome.text, 3000)}`, {
        parse_mode: "HTML",
        ...threadOptions(chat),
        reply_parameters: { message_id: place.questionMessageId, allow_sending_without_reply: true },
        reply_markup: {
          force_reply: true,
          selective: true,
          input_field_placeholder: clip(outcome.placeholder, INPUT_FIELD_PLACEHOLDER_MAX_CHARS),
        },
      });
    } catch (error) {
      logger.warn({ channel: name, err: describeError(error) }, "could not ask for the Other… answer");
      return;
    }
    // A reply to this prompt belongs to this question, even when others are pending or it has ended.
    try {
      await broker.rememberMessage(outcome.record.id, {
        channel: name,
        conversation: formatConversation(chat),
        messageId: String(sent.message_id),
      });
    } catch (error) {
      logger.error(
        { channel: name, questionId: outcome.record.id, err: describeError(error) },
        "could not remember the Other… prompt",
      );
    }
  }

  /**
   * The outcome of a tap: in the answer to the query (a refusal or a Send with gaps as an alert, a staged
   * choice as a toast, nothing for Back / Next). When the deadline answered it already, a refusal is sent
   * as a reply instead, and a recorded answer shows in the message edit.
   */
  return async (tap, place, outcome) => {
    const alert = outcome.kind === "refused" || outcome.kind === "invalid";
    const text = clip(outcome.text, CALLBACK_ANSWER_TEXT_MAX_CHARS);
    const answered = await tap.answer(text === "" ? {} : { text, show_alert: alert });
    if (outcome.kind === "awaiting_text") await askForText(place, outcome);
    else if (!answered && alert) await tellTapper(place, outcome.text);
    if (showsForm(outcome)) {
      try {
        await forms.show({ chat: place.chat, messageId: place.questionMessageId }, outcome.record);
      } catch (error) {
        logger.warn({ channel: name, err: describeError(error) }, "could not show the form after a tap");
      }
    }
  };
}
