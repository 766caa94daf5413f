/** Fake users: they write messages and tap buttons, which become updates for the bot. */
import { commandEntities, withMentions } from "./format.ts";
import { asInlineKeyboard } from "./markup.ts";
import { reachesBot } from "./privacy.ts";
import {
  chatFor,
  enqueue,
  findMessage,
  nextMessageId,
  notify,
  type State,
  shallow,
  storeMessage,
  unixNow,
  waitUntil,
} from "./state.ts";
import type { CallbackAnswer, TgCallbackQuery, TgMessage, TgUser, UserInit } from "./types.ts";

/** Options of {@link FakeUser.sendText}. */
export interface SendTextOptions {
  /** The message this one replies to (must exist in the chat). */
  replyTo?: number;
  /** The forum topic (`message_thread_id`); makes the chat a forum supergroup. */
  threadId?: number;
}

/** Options of {@link FakeUser.tap}. */
export interface TapOptions {
  /**
   * Tap even if the message has no button with this `callback_data` (a stale keyboard on the user's
   * screen). By default a tap on a button that is not there throws: no user could do it.
   */
  stale?: boolean;
}

/** A Telegram user driving the bot under test. */
export interface FakeUser {
  readonly id: number;
  /** The `User` object that appears as `from` in this user's updates. */
  readonly user: TgUser;
  /**
   * Writes `text` in a chat: a private chat when `chatId` is the user's id, else a group. Enqueues a
   * `message` update and returns the message — in a group with privacy mode on, only when the message
   * replies to the bot, carries a command for it or mentions it (else it lands in `withheld`).
   */
  sendText(chatId: number, text: string, options?: SendTextOptions): TgMessage;
  /** Taps the inline button with this `callback_data`; enqueues a `callback_query` and returns its id. */
  tap(chatId: number, messageId: number, data: string, options?: TapOptions): string;
  /** Taps the inline callback button whose label is `buttonText`; returns the callback query id. */
  press(chatId: number, messageId: number, buttonText: string): string;
  /** Resolves with the bot's `answerCallbackQuery` for this query; rejects after `timeoutMs`. */
  waitForAnswer(callbackQueryId: string, timeoutMs?: number): Promise<CallbackAnswer>;
}

/** Creates a {@link FakeUser} acting in `state`. */
export function createFakeUser(state: State, init: UserInit): FakeUser {
  const user: TgUser = { is_bot: false, ...init };
  state.users.set(user.id, user);
  const buttons = (chatId: number, messageId: number) => {
    const stored = findMessage(state, chatId, messageId);
    if (!stored) throw new Error(`fake Telegram: no message ${messageId} in chat ${chatId}`);
    return { stored, rows: asInlineKeyboard(stored.markup)?.inline_keyboard ?? [] };
  };

  const tap = (chatId: number, messageId: number, data: string, options: TapOptions = {}) => {
    const { stored, rows } = buttons(chatId, messageId);
    if (!options.stale && !rows.flat().some((button) => button.callback_data === data)) {
      throw new Error(
        `fake Telegram: message ${messageId} in chat ${chatId} has no button with callback_data "${data}"`,
      );
    }
    const id = String(9_000_000_000_000 + state.nextCallbackQueryId++);
    const query: TgCallbackQuery = {
      id,
      from: { ...user },
      chat_instance: String(BigInt(chatId) * 7919n + 104729n),
      data,
      message: structuredClone(stored.message),
    };
    state.callbackQueries.set(id, { query, answered: false });
    enqueue(state, { callback_query: query });
    return id;
  };

  return {
    id: user.id,
    user,
    sendText(chatId, text, options = {}) {
      if (chatId > 0 && chatId !== user.id) {
        throw new Error(`fake Telegram: user ${user.id} cannot write in the private chat of ${chatId}`);
      }
      const chat = chatFor(state, chatId, user, options.threadId !== undefined);
      const message: TgMessage = {
        message_id: nextMessageId(state, chatId),
        from: { ...user },
        chat: { ...chat },
        date: unixNow(state),
        text,
      };
      if (options.threadId !== undefined) {
        message.message_thread_id = options.threadId;
        message.is_topic_message = true;
      }
      if (options.replyTo !== undefined) {
        const target = findMessage(state, chatId, options.replyTo);
        if (!target)
          throw new Error(`fake Telegram: no message ${options.replyTo} in chat ${chatId} to reply to`);
        message.reply_to_message = shallow(target.message);
      }
      const entities = withMentions(text, commandEntities(text));
      if (entities.length > 0) message.entities = entities;
      storeMessage(state, { message, sourceText: text });
      if (reachesBot(state, message)) enqueue(state, { message });
      else {
        state.withheld.push(structuredClone(message));
        notify(state);
      }
      return structuredClone(message);
    },
    tap,
    press(chatId, messageId, buttonText) {
      const { rows } = buttons(chatId, messageId);
      const button = rows.flat().find((b) => b.text === buttonText && b.callback_data !== undefined);
      if (!button?.callback_data) {
        throw new Error(
          `fake Telegram: message ${messageId} in chat ${chatId} has no callback button "${buttonText}"`,
        );
      }
      return tap(chatId, messageId, button.callback_data);
    },
    waitForAnswer(callbackQueryId, timeoutMs) {
      return waitUntil(
        state,
        () => state.callbackAnswers.find((answer) => answer.callback_query_id === callbackQueryId),
        timeoutMs,
        `answerCallbackQuery("${callbackQueryId}")`,
      );
    },
  };
}
