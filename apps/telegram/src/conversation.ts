/**
 * Conversation ids of the Telegram channel: `"<chatId>"` for a private chat, group or channel, and
 * `"<chatId>:<threadId>"` for a forum topic (`message_thread_id`), e.g. `"-1001234567890:42"`. Pure and
 * light: the plugin loads it without the SDK.
 */
import { AskUserError } from "@ask-user/core/channel";

export interface TelegramConversation {
  chatId: number;
  threadId?: number;
}

const CONVERSATION_PATTERN = /^(-?\d{1,20})(?::(\d{1,20}))?$/;

/** `"-100…:42"` → `{ chatId, threadId }`; `undefined` for anything else (`@channelname`: updates carry ids only). */
export function parseConversation(text: string): TelegramConversation | undefined {
  const match = CONVERSATION_PATTERN.exec(typeof text === "string" ? text.trim() : "");
  if (!match) return undefined;
  const chatId = Number(match[1]);
  if (!Number.isSafeInteger(chatId) || chatId === 0) return undefined;
  if (match[2] === undefined) return { chatId };
  const threadId = Number(match[2]);
  return Number.isSafeInteger(threadId) && threadId > 0 ? { chatId, threadId } : undefined;
}

/** @example formatConversation({ chatId: -100, threadId: 7 }) // "-100:7" */
export function formatConversation(conversation: TelegramConversation): string {
  return conversation.threadId === undefined
    ? String(conversation.chatId)
    : `${conversation.chatId}:${conversation.threadId}`;
}

/** The chat of a conversation id the channel sends to; `invalid_input` for anything else. */
export function chatOrThrow(conversation: string | undefined): TelegramConversation {
  const chat = conversation === undefined ? undefined : parseConversation(conversation);
  if (!chat) {
    throw new AskUserError(
      "invalid_input",
      `"${conversation ?? ""}" is not a Telegram conversation: use a numeric chat id, or "<chatId>:<threadId>" for a forum topic.`,
    );
  }
  return chat;
}

/** `message_thread_id` for a forum topic: spread into a send's options. */
export function threadOptions(chat: TelegramConversation): { message_thread_id?: number } {
  return chat.threadId === undefined ? {} : { message_thread_id: chat.threadId };
}
