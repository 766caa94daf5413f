/**
 * Notices (confirmations, stepper notes, refusals, hints) as Telegram messages, each a reply to the
 * person's message. A confirmation of a complete answer or a skip is quiet: a reaction on the person's
 * message (👍 answered, 👌 skipped), because the prompt's own edit to the summary already says what was
 * recorded; where the chat does not allow that reaction, it is a reply as before.
 */
import {
  type AskUserLogger,
  type DeliveryRef,
  describeError,
  isConfirmation,
  type Notice,
} from "@ask-user/core/channel";
import type { Api } from "grammy";
import { chatOrThrow, type TelegramConversation, threadOptions } from "./conversation.ts";
import { toChannelError } from "./errors.ts";
import { HTML } from "./outbound.ts";
import { renderPlain } from "./render/prompt.ts";

/** The reaction that confirms an answer given in text (one of the emoji bots may react with). */
export const CONFIRMED_REACTION = "👍";
/** The reaction that confirms a skip given in text. */
export const SKIPPED_REACTION = "👌";

/** What sending a notice needs from the channel. */
export interface NoticeDeps {
  api: Api;
  logger: AskUserLogger;
  /** The channel's name, for logs. */
  name: string;
}

/** Reacts to the person's message; false (logged) when Telegram refused or failed. */
async function react(
  { api, logger, name }: NoticeDeps,
  chat: TelegramConversation,
  messageId: number,
  emoji: typeof CONFIRMED_REACTION | typeof SKIPPED_REACTION,
): Promise<boolean> {
  try {
    await api.setMessageReaction(chat.chatId, messageId, [{ type: "emoji", emoji }]);
    return true;
  } catch (error) {
    logger.warn(
      { channel: name, err: describeError(error) },
      "could not react to confirm a reply; replying instead",
    );
    return false;
  }
}

/**
 * Sends a notice (see the module comment). Returns the message sent, or `undefined` for a reaction
 * (nothing anyone replies to). Throws a `ChannelError` when the message cannot be sent.
 */
export async function sendNotice(deps: NoticeDeps, notice: Notice): Promise<DeliveryRef | undefined> {
  const { api } = deps;
  const chat = chatOrThrow(notice.conversation);
  const replyTo = notice.replyTo === undefined ? undefined : Number(notice.replyTo);
  const known = replyTo !== undefined && Number.isSafeInteger(replyTo);
  if (isConfirmation(notice.purpose) && known) {
    const skipped = notice.purpose === "skipped";
    if (await react(deps, chat, replyTo, skipped ? SKIPPED_REACTION : CONFIRMED_REACTION)) return undefined;
  }
  try {
    const sent = await api.sendMessage(chat.chatId, renderPlain(notice.text), {
      ...HTML,
      ...threadOptions(chat),
      ...(known ? { reply_parameters: { message_id: replyTo, allow_sending_without_reply: true } } : {}),
    });
    return { messageId: String(sent.message_id) };
  } catch (error) {
    throw toChannelError(error, "sendMessage");
  }
}
