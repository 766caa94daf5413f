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
import { chatOrThrow, threadOptions } from "./conversation.ts";
import { toChannelError } from "./errors.ts";
import { HTML } from "./outbound.ts";
import { renderPlain } from "./render/prompt.ts";

/** The reaction that confirms an answer given in text (one of the emoji bots may react with). */
export const CONFIRMED_REACTION = "👍";
/** The reaction that confirms a skip given in text. */
export const SKIPPED_REACTION = "👌";

/**
 * Sends a notice (see the module comment): the message sent, or `undefined` for a reaction. Throws a
 * `ChannelError` when the message cannot be sent.
 */
export async function sendNotice(
  { api, logger, name }: { api: Api; logger: AskUserLogger; name: string },
  notice: Notice,
): Promise<DeliveryRef | undefined> {
  const chat = chatOrThrow(notice.conversation);
  const replyTo = Number(notice.replyTo);
  const known = Number.isSafeInteger(replyTo);
  if (isConfirmation(notice.purpose) && known) {
    const emoji = notice.purpose === "skipped" ? SKIPPED_REACTION : CONFIRMED_REACTION;
    try {
      await api.setMessageReaction(chat.chatId, replyTo, [{ type: "emoji", emoji }]);
      return undefined;
    } catch (error) {
      const details = { channel: name, err: describeError(error) };
      logger.warn(details, "could not react to confirm a reply; replying instead");
    }
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
