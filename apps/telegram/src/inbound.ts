/**
 * Telegram updates → core calls. The only module that reads update payloads (grammY's typed `Context`):
 * callback queries go to `broker.handleAction` (and are always answered, within 2 s: `tap.ts`), text
 * messages to `broker.handleReply`; whatever is not ours passes on to the host bot's other handlers with
 * `next()`. A redelivered update (same `update_id`) is dropped
 * (`dedupe.ts`; across instances with a shared coordination).
 */
import {
  type AskUserBroker,
  type AskUserLogger,
  type Coordination,
  describeError,
  type InboundOutcome,
  messagesFor,
} from "@ask-user/core";
import { type Api, Composer, type Context } from "grammy";
import type { Chat, MaybeInaccessibleMessage, Message, User } from "grammy/types";
import { formatConversation, type TelegramConversation } from "./conversation.ts";
import { createDedupe } from "./dedupe.ts";
import { CALLBACK_ANSWER_TEXT_MAX_CHARS, INPUT_FIELD_PLACEHOLDER_MAX_CHARS } from "./limits.ts";
import { displayNameOf } from "./names.ts";
import { clip, escapeHtml, renderPlain } from "./render.ts";
import { replyText } from "./reply-text.ts";
import { createTapDeadline, type Tap, tapOf } from "./tap.ts";

/** What the inbound side needs from the channel. */
export interface InboundOptions {
  /** The channel's name in targets (`telegram`). */
  name: string;
  broker: AskUserBroker;
  /** The channel's own API client (with retries). */
  api: Api;
  /** Locale for users whose `language_code` is missing or has no catalogue. */
  defaultLocale?: string;
  logger: AskUserLogger;
  /** Shared with the other instances: each update is handled once across all of them. */
  coordination?: Coordination;
}

/** The chat (and forum topic) of a message. */
export function chatOf(message: MaybeInaccessibleMessage): TelegramConversation {
  const threadId = message.is_topic_message === true ? message.message_thread_id : undefined;
  return threadId === undefined ? { chatId: message.chat.id } : { chatId: message.chat.id, threadId };
}

/** The user's locale when ask-user has a catalogue for it, else the configured default. */
export function localeOf(user: User, fallback: string | undefined): string | undefined {
  const code = user.language_code;
  const language = code?.toLowerCase().split(/[-_]/)[0];
  if (code && language && messagesFor(code).locale === language) return code;
  return fallback;
}

/** Where a message to the person who tapped goes: a reply to the question message, in its topic. */
interface TapPlace {
  chat: TelegramConversation;
  chatType: Chat["type"];
  questionMessageId: number;
  from: User;
}

/**
 * The channel's middleware: mount it with `bot.use(...)`. Builds on grammY's composer so that updates it
 * does not own reach the host's handlers unchanged.
 */
export function createInbound<C extends Context>(options: InboundOptions): Composer<C> {
  const { name, api, logger, broker } = options;
  const composer = new Composer<C>();

  composer.use(createTapDeadline<C>({ name, api, logger }));
  composer.use(
    createDedupe<C>({
      name,
      logger,
      ...(options.coordination === undefined ? {} : { coordination: options.coordination }),
    }),
  );

  composer.on("callback_query:data", async (ctx, next) => {
    const query = ctx.callbackQuery;
    const message = query.message;
    const tap = tapOf(ctx);
    if (!message || !tap) {
      tap?.release();
      return next();
    }
    const place: TapPlace = {
      chat: chatOf(message),
      chatType: message.chat.type,
      questionMessageId: message.message_id,
      from: query.from,
    };
    const locale = localeOf(query.from, options.defaultLocale);
    let outcome: InboundOutcome;
    try {
      outcome = await broker.handleAction({
        channel: name,
        conversation: formatConversation(place.chat),
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
      await tap.answer({});
      return;
    }
    if (outcome.kind === "ignored") {
      if (tap.late) return; // answered already: the host's handlers could not answer it again
      tap.release();
      return next();
    }
    await showOutcome(tap, place, outcome);
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
      outcome = await broker.handleReply({
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

  /**
   * The outcome of a tap: in the answer to the query (a refusal as an alert). When the deadline answered
   * it already, a refusal is sent as a reply instead, and a recorded answer shows in the message edit.
   */
  async function showOutcome(
    tap: Tap,
    place: TapPlace,
    outcome: Exclude<InboundOutcome, { kind: "ignored" }>,
  ): Promise<void> {
    const alert = outcome.kind === "refused" || outcome.kind === "invalid";
    const answered = await tap.answer({
      text: clip(outcome.text, CALLBACK_ANSWER_TEXT_MAX_CHARS),
      show_alert: alert,
    });
    if (outcome.kind === "awaiting_text") await askForText(place, outcome);
    else if (!answered && alert) await tellTapper(place, outcome.text);
  }

  /** In groups, the tapper's name as a link that reaches them (`tg://user?id=`); nothing in private. */
  function mentionOf(place: TapPlace): string {
    if (place.chatType === "private") return "";
    return `<a href="tg://user?id=${place.from.id}">${escapeHtml(clip(place.from.first_name, 64))}</a>: `;
  }

  /** A late refusal of a tap, as a reply to the question message. */
  async function tellTapper(place: TapPlace, text: string): Promise<void> {
    try {
      await api.sendMessage(place.chat.chatId, `${mentionOf(place)}${renderPlain(text, 3000)}`, {
        parse_mode: "HTML",
        link_preview_options: { is_disabled: true },
        ...(place.chat.threadId === undefined ? {} : { message_thread_id: place.chat.threadId }),
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
        ...(chat.threadId === undefined ? {} : { message_thread_id: chat.threadId }),
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

  return composer;
}
