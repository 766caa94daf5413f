/**
 * The slice of Telegram Bot API objects the fake produces, plus the fake's own records.
 * Field names follow the Bot API (snake_case) so they can be compared with what grammY sees.
 */

/** A Telegram `User`. */
export interface TgUser {
  id: number;
  is_bot: boolean;
  first_name: string;
  last_name?: string;
  username?: string;
  language_code?: string;
}

/** A Telegram `Chat`. */
export interface TgChat {
  id: number;
  type: "private" | "group" | "supergroup";
  title?: string;
  first_name?: string;
  last_name?: string;
  username?: string;
  is_forum?: boolean;
}

/** A Telegram `MessageEntity`; offsets and lengths in UTF-16 code units. */
export interface TgEntity {
  type: string;
  offset: number;
  length: number;
  url?: string;
  language?: string;
  custom_emoji_id?: string;
  user?: { id: number; is_bot: boolean; first_name: string };
}

/** An inline keyboard button (only the fields the fake looks at are typed). */
export interface TgInlineButton {
  text: string;
  callback_data?: string;
  url?: string;
  [field: string]: unknown;
}

/** `InlineKeyboardMarkup`. */
export interface TgInlineKeyboard {
  inline_keyboard: TgInlineButton[][];
}

/** Any `reply_markup` the fake accepted: inline keyboard, reply keyboard, `remove_keyboard` or `force_reply`. */
export type TgReplyMarkup = TgInlineKeyboard | Record<string, unknown>;

/** A Telegram `Message` (text messages only). */
export interface TgMessage {
  message_id: number;
  from: TgUser;
  chat: TgChat;
  date: number;
  text: string;
  entities?: TgEntity[];
  reply_markup?: TgInlineKeyboard;
  message_thread_id?: number;
  is_topic_message?: boolean;
  reply_to_message?: TgMessage;
  edit_date?: number;
}

/** A Telegram `CallbackQuery`. */
export interface TgCallbackQuery {
  id: string;
  from: TgUser;
  chat_instance: string;
  data: string;
  message: TgMessage;
}

/** A Telegram `Update` of the kinds the fake generates. */
export interface TgUpdate {
  update_id: number;
  message?: TgMessage;
  callback_query?: TgCallbackQuery;
}

/** A message as it currently stands in a chat (after edits; gone after `deleteMessage`). */
export interface FakeMessage {
  message_id: number;
  chat_id: number;
  from: TgUser;
  date: number;
  /** The text as the user sees it: markup parsed away, entities in `entities`. */
  text: string;
  entities: TgEntity[];
  /** The text exactly as the bot sent it (before `parse_mode` parsing). */
  source_text: string;
  parse_mode?: string;
  /** Any markup the bot attached (inline keyboard, `force_reply`, reply keyboard). */
  reply_markup?: TgReplyMarkup;
  message_thread_id?: number;
  reply_to_message_id?: number;
  edit_date?: number;
  /** The bot's reaction on the message (`setMessageReaction`), as emoji. */
  reactions?: string[];
}

/** One request to the fake Bot API with the right token. */
export interface ApiCall {
  method: string;
  params: Record<string, unknown>;
  /** Epoch ms when the request arrived. */
  at: number;
  /** Set when the fake answered with an error. */
  error?: { error_code: number; description: string };
}

/** What the bot passed to `answerCallbackQuery`. */
export interface CallbackAnswer {
  callback_query_id: string;
  text?: string;
  show_alert: boolean;
  url?: string;
  cache_time?: number;
}

/** A failure that {@link FakeTelegram.failNext} injects into the next call of a method. */
export type Failure =
  | { status: 429; retry_after: number }
  | { status: 500 | 502 }
  | { status: 400 | 403 | 404 | 409; description: string };

/** One try at POSTing an update to the webhook. */
export interface WebhookDelivery {
  update_id: number;
  attempt: number;
  /** HTTP status of the bot's answer, or 0 when the request failed (refused, timed out). */
  status: number;
  error?: string;
  at: number;
}

/** An update the fake gave up on. */
export interface DroppedUpdate {
  update: TgUpdate;
  reason: string;
  at: number;
}

/** The sender given to {@link FakeTelegram.user}. */
export interface UserInit {
  id: number;
  first_name: string;
  last_name?: string;
  username?: string;
  language_code?: string;
}
