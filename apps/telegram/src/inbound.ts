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
import type { MaybeInaccessibleMessage, User } from "grammy/types";
import { formatConversation, type TelegramConversation } from "./conversation.ts";
import { createDedupe } from "./dedupe.ts";
import { firstOpenQuestion } from "./form.ts";
import type { FormMessages } from "./form-messages.ts";
import { displayNameOf } from "./names.ts";
import { replyText } from "./reply-text.ts";
import { createTapDeadline, tapOf } from "./tap.ts";
import { createTapOutcomes, showsForm, type TapPlace } from "./tap-outcome.ts";

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
  /** The form messages this process shows (which question each shows, their edits). */
  forms: FormMessages;
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

/**
 * The channel's middleware: mount it with `bot.use(...)`. Builds on grammY's composer so that updates it
 * does not own reach the host's handlers unchanged.
 */
export function createInbound<C extends Context>(options: InboundOptions): Composer<C> {
  const { name, api, logger, broker, forms } = options;
  const composer = new Composer<C>();
  const showOutcome = createTapOutcomes({ name, api, logger, broker, forms });

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
    // A refresh of this message waits until the tap chose the question it shows.
    const shown = { chat: place.chat, messageId: message.message_id };
    const tapped = forms.tapping(shown);
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
      // A control shows its question; a Send with gaps shows the first question still needing an answer.
      if (outcome.kind === "staged") forms.view(shown, outcome.questionIndex);
      else if (outcome.kind !== "ignored" && showsForm(outcome))
        forms.view(shown, firstOpenQuestion(outcome.record));
    } catch (error) {
      logger.error(
        { channel: name, updateId: ctx.update.update_id, err: describeError(error) },
        "tap failed",
      );
      await tap.answer({});
      return;
    } finally {
      tapped();
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

  return composer;
}
