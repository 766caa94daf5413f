/** Message methods: `sendMessage`, `editMessageText`, `editMessageReplyMarkup`, `deleteMessage`. */
import { formatText } from "./format.ts";
import { asInlineKeyboard, editMarkup, replyMarkup } from "./markup.ts";
import { badRequest, chatId, int, isObject, optBool, optInt, optJson, type Params } from "./params.ts";
import {
  chatFor,
  findMessage,
  nextMessageId,
  notify,
  type State,
  type StoredMessage,
  shallow,
  storeMessage,
  unixNow,
} from "./state.ts";
import type { TgInlineKeyboard, TgMessage } from "./types.ts";

const NOT_MODIFIED =
  "message is not modified: specified new message content and reply markup are exactly the same as a current " +
  "content and reply markup of the message";

/** The message a new one replies to: `reply_parameters` or the older `reply_to_message_id`. */
function repliedTo(state: State, chat: number, params: Params): TgMessage | undefined {
  const parameters = optJson(params, "reply_parameters", "reply parameters JSON object");
  let messageId = optInt(params, "reply_to_message_id");
  let inChat = chat;
  let allowMissing = optBool(params, "allow_sending_without_reply") === true;
  if (isObject(parameters)) {
    messageId = optInt(parameters, "message_id");
    inChat = optInt(parameters, "chat_id") ?? chat;
    allowMissing = optBool(parameters, "allow_sending_without_reply") === true;
    if (messageId === undefined) throw badRequest("message_id is empty");
  }
  if (messageId === undefined) return undefined;
  const target = findMessage(state, inChat, messageId);
  if (!target && !allowMissing) throw badRequest("message to be replied not found");
  return target ? shallow(target.message) : undefined;
}

/** `sendMessage`. */
export function sendMessage(state: State, params: Params): TgMessage {
  const chat = chatId(params);
  const formatted = formatText(params);
  const markup = replyMarkup(params);
  const threadId = optInt(params, "message_thread_id");
  const replyTo = repliedTo(state, chat, params);
  const message: TgMessage = {
    message_id: nextMessageId(state, chat),
    from: { ...state.bot },
    chat: { ...chatFor(state, chat, undefined, threadId !== undefined) },
    date: unixNow(state),
    text: formatted.text,
  };
  if (threadId !== undefined) {
    message.message_thread_id = threadId;
    message.is_topic_message = true;
  }
  if (replyTo) message.reply_to_message = replyTo;
  if (formatted.entities.length > 0) message.entities = formatted.entities;
  const keyboard = asInlineKeyboard(markup);
  if (keyboard) message.reply_markup = keyboard;
  const stored: StoredMessage = { message, sourceText: formatted.source };
  if (formatted.parseMode !== undefined) stored.parseMode = formatted.parseMode;
  if (markup !== undefined) stored.markup = markup;
  storeMessage(state, stored);
  return structuredClone(message);
}

function editable(state: State, params: Params, what: "edit" | "delete"): StoredMessage {
  if (params.inline_message_id !== undefined) throw badRequest("MESSAGE_ID_INVALID");
  const stored = findMessage(state, chatId(params), int(params, "message_id"));
  if (!stored) throw badRequest(`message to ${what} not found`);
  if (what === "edit" && stored.message.from.id !== state.bot.id) throw badRequest("message can't be edited");
  return stored;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

function applyKeyboard(stored: StoredMessage, keyboard: TgInlineKeyboard | undefined): void {
  if (keyboard) {
    stored.message.reply_markup = keyboard;
    stored.markup = keyboard;
  } else {
    delete stored.message.reply_markup;
    delete stored.markup;
  }
}

/**
 * `editMessageText`. Like real Telegram, omitting `reply_markup` removes the inline keyboard, and an
 * edit that changes nothing is refused with "message is not modified".
 */
export function editMessageText(state: State, params: Params): TgMessage {
  const stored = editable(state, params, "edit");
  const formatted = formatText(params);
  const keyboard = editMarkup(params);
  const message = stored.message;
  const unchanged =
    message.text === formatted.text &&
    same(message.entities ?? [], formatted.entities) &&
    same(asInlineKeyboard(stored.markup), keyboard);
  if (unchanged) throw badRequest(NOT_MODIFIED);
  message.text = formatted.text;
  if (formatted.entities.length > 0) message.entities = formatted.entities;
  else delete message.entities;
  stored.sourceText = formatted.source;
  if (formatted.parseMode !== undefined) stored.parseMode = formatted.parseMode;
  else delete stored.parseMode;
  applyKeyboard(stored, keyboard);
  message.edit_date = unixNow(state);
  notify(state);
  return structuredClone(message);
}

/** `editMessageReplyMarkup`: replaces the inline keyboard (omitted `reply_markup` removes it). */
export function editMessageReplyMarkup(state: State, params: Params): TgMessage {
  const stored = editable(state, params, "edit");
  const keyboard = editMarkup(params);
  if (same(asInlineKeyboard(stored.markup), keyboard)) throw badRequest(NOT_MODIFIED);
  applyKeyboard(stored, keyboard);
  stored.message.edit_date = unixNow(state);
  notify(state);
  return structuredClone(stored.message);
}

/** `deleteMessage`. */
export function deleteMessage(state: State, params: Params): boolean {
  const stored = editable(state, params, "delete");
  state.messages.get(stored.message.chat.id)?.delete(stored.message.message_id);
  notify(state);
  return true;
}
