/**
 * Telegram updates → core calls. The only module that reads raw update payloads: callback queries go to
 * `broker.handleAction` (and are always answered), text messages to `broker.handleReply`; whatever is
 * not ours passes on to the host bot's other handlers with `next()`. A redelivered update (same
 * `update_id`) is dropped (`dedupe.ts`; across instances with a shared coordination).
 */
import {
  type AskUserBroker,
  type AskUserLogger,
  type Coordination,
  decodeAction,
  type InboundOutcome,
  messagesFor,
} from "@ask-user/core";
import { type Api, Composer, type Context } from "grammy";
import type { MaybeInaccessibleMessage, Message, User } from "grammy/types";
import { type ChatRef, formatConversation } from "./conversation.ts";
import { createDedupe } from "./dedupe.ts";
import { describeError } from "./errors.ts";
import { CALLBACK_ANSWER_TEXT_MAX_CHARS, INPUT_FIELD_PLACEHOLDER_MAX_CHARS } from "./limits.ts";
import { displayNameOf } from "./names.ts";
import { clip, escapeHtml, renderPlain } from "./render.ts";
import { replyText } from "./reply-text.ts";

/** What the inbound side needs from the channel. */
export interface InboundOptions {
  /** The channel's name in targets (`telegram`). */
  name: string;
  broker: () => AskUserBroker;
  /** The channel's own API client (with retries). */
  api: Api;
  /** Locale for users whose `language_code` is missing or has no catalogue. */
  defaultLocale?: string;
  logger: AskUserLogger;
  /** How many recent update ids to remember for dropping redeliveries (no coordination). */
  dedupeCapacity?: number;
  /** Shared with the other instances: each update is handled once across all of them. */
  coordination?: Coordination;
}

/** The chat (and forum topic) of a message. */
export function chatOf(message: MaybeInaccessibleMessage): ChatRef {
  const full = message as Partial<Message>;
  const threadId = full.is_topic_message === true ? full.message_thread_id : undefined;
  return threadId === undefined ? { chatId: message.chat.id } : { chatId: message.chat.id, threadId };
}

/** The user's locale when ask-user has a catalogue for it, else the configured default. */
export function localeOf(user: User, fallback: string | undefined): string | undefined {
  const code = user.language_code;
  const language = code?.toLowerCase().split(/[-_]/)[0];
  if (code && language && messagesFor(code).locale === language) return code;
  return fallback;
}

/**
 * The channel's middleware: mount it with `bot.use(...)`. Builds on grammY's composer so that updates it
 * does not own reach the host's handlers unchanged.
 */
export function createInbound<C extends Context>(options: InboundOptions): Composer<C> {
  const { name, api, logger } = options;
  const composer = new Composer<C>();

  composer.use(
    createDedupe<C>({
      name,
      logger,
      ...(options.coordination === undefined ? {} : { coordination: options.coordination }),
      ...(options.dedupeCapacity === undefined ? {} : { capacity: options.dedupeCapacity }),
    }),
  );

  composer.on("callback_query:data", async (ctx, next) => {
    const query = ctx.callbackQuery;
    const message = query.message;
    if (!message || !decodeAction(query.data)) return next();
    const chat = chatOf(message);
    const locale = localeOf(query.from, options.defaultLocale);
    let outcome: InboundOutcome;
    try {
      outcome = await options.broker().handleAction({
        channel: name,
        conversation: formatConversation(chat),
        userId: String(query.from.id),
        displayName: displayNameOf(query.from),
        data: query.data,
        ...(locale === undefined ? {} : { locale }),
      });
    } catch (error) {
      logger.error(
        { channel: name, updateId: ctx.update.update_id, err: describeError(error) },
        "tap failed",
      );
      await answer(query.id, {});
      return;
    }
    if (outcome.kind === "ignored") return next();
    const alert = outcome.kind === "refused" || outcome.kind === "invalid";
    await answer(query.id, { text: clip(outcome.text, CALLBACK_ANSWER_TEXT_MAX_CHARS), show_alert: alert });
    if (outcome.kind === "awaiting_text") {
      await askForText(chat, message.message_id, query.from, message.chat.type, outcome);
    }
  });

  composer.on("message:text", async (ctx, next) => {
    const message = ctx.message;
    if (message.from.is_bot) return next();
    const text = replyText(message, ctx.me.username);
    if (text === undefined) return next();
    const locale = localeOf(message.from, options.defaultLocale);
    const replyTo = message.reply_to_message?.message_id;
    let outcome: InboundOutcome;
    try {
      outcome = await options.broker().handleReply({
        channel: name,
        conversation: formatConversation(chatOf(message)),
        userId: String(message.from.id),
        displayName: displayNameOf(message.from),
        text,
        messageId: String(message.message_id),
        ...(replyTo === undefined ? {} : { replyTo: String(replyTo) }),
        ...(locale === undefined ? {} : { locale }),
      });
    } catch (error) {
      logger.error(
        { channel: name, updateId: ctx.update.update_id, err: describeError(error) },
        "reply failed",
      );
      return;
    }
    if (outcome.kind === "ignored") return next();
  });

  /** Answers a callback query; a failure is logged, never thrown (the tap is over either way). */
  async function answer(queryId: string, other: { text?: string; show_alert?: boolean }): Promise<void> {
    try {
      await api.answerCallbackQuery(queryId, other);
    } catch (error) {
      logger.warn({ channel: name, err: describeError(error) }, "could not answer a callback query");
    }
  }

  /**
   * Other…: a force-reply to the question message, selective, with the placeholder. In groups it
   * mentions the tapper, because a selective force-reply reaches only mentioned users (and the author of
   * the replied-to message, which is the bot here).
   */
  async function askForText(
    chat: ChatRef,
    questionMessageId: number,
    from: User,
    chatType: string,
    outcome: Extract<InboundOutcome, { kind: "awaiting_text" }>,
  ): Promise<void> {
    const mention =
      chatType === "private"
        ? ""
        : `<a href="tg://user?id=${from.id}">${escapeHtml(clip(from.first_name, 64))}</a>: `;
    let sent: Message.TextMessage;
    try {
      sent = await api.sendMessage(chat.chatId, `${mention}${renderPlain(outcome.text, 3000)}`, {
        parse_mode: "HTML",
        ...(chat.threadId === undefined ? {} : { message_thread_id: chat.threadId }),
        reply_parameters: { message_id: questionMessageId, allow_sending_without_reply: true },
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
      await options.broker().rememberMessage(outcome.record.id, {
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

  return composer;
}
