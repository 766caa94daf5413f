/**
 * Telegram updates → core calls, and what a person sees of the outcome. The only module that reads
 * update payloads: callback queries go to `broker.handleAction` (always answered, within 2 s: `taps.ts`),
 * text messages to `broker.handleReply`; whatever is not ours passes on to the host bot's other handlers
 * with `next()`. A redelivered update is dropped first (`ingress/dedupe.ts`).
 */
import {
  type AskUserBroker,
  type AskUserLogger,
  type Coordination,
  clipText,
  describeError,
  firstOpenQuestion,
  type InboundOutcome,
  isForm,
  messagesFor,
  type PromptMessages,
  type QuestionRecord,
} from "@ask-user/core/channel";
import { type Api, Composer, type Context } from "grammy";
import type { CallbackQuery, MaybeInaccessibleMessage, User } from "grammy/types";
import { formatConversation, type TelegramConversation, threadOptions } from "./conversation.ts";
import { createDedupe } from "./ingress/dedupe.ts";
import { CALLBACK_ANSWER_TEXT_MAX_CHARS, INPUT_FIELD_PLACEHOLDER_MAX_CHARS } from "./limits.ts";
import { displayNameOf } from "./names.ts";
import { HTML } from "./outbound.ts";
import { escapeHtml, renderPlain } from "./render/prompt.ts";
import { replyText } from "./reply-text.ts";
import { createTapDeadline, type Tap, tapOf } from "./taps.ts";

/** What the inbound side needs from the channel. */
export interface InboundOptions {
  name: string;
  broker: AskUserBroker;
  api: Api;
  logger: AskUserLogger;
  defaultLocale?: string;
  coordination?: Coordination;
  /** The form state of the channel's prompt messages (keys `"<chatId>:<messageId>"`). */
  messages: PromptMessages;
  showForm(chat: TelegramConversation, messageId: number, record: QuestionRecord): Promise<void>;
  /** False once the channel stopped: every update passes on. */
  running(): boolean;
}

/** The chat (and forum topic) of a message. */
function chatOf(message: MaybeInaccessibleMessage): TelegramConversation {
  const threadId = message.is_topic_message === true ? message.message_thread_id : undefined;
  return threadId === undefined ? { chatId: message.chat.id } : { chatId: message.chat.id, threadId };
}

/** Who acts, for core's events: the user's locale when ask-user has a catalogue for it, else the default. */
function actorOf(user: User, fallback: string | undefined) {
  const code = user.language_code;
  const language = code?.toLowerCase().split(/[-_]/)[0];
  const locale = code && language && messagesFor(code).locale === language ? code : fallback;
  return {
    userId: String(user.id),
    displayName: displayNameOf(user),
    ...(locale === undefined ? {} : { locale }),
  };
}

type ShownOutcome = Exclude<InboundOutcome, { kind: "ignored" }>;

/** True when the tap's message is a form to show again: a control staged, or Send found gaps. */
function showsForm(outcome: ShownOutcome): outcome is Extract<ShownOutcome, { kind: "staged" | "invalid" }> {
  return outcome.kind === "staged" || (outcome.kind === "invalid" && isForm(outcome.record.prompt));
}

type TapPlace = { chat: TelegramConversation; query: CallbackQuery; message: MaybeInaccessibleMessage };

/** Shows tap outcomes: the answer to the query, then what the outcome needs (a form edit, Other…). */
function createTapOutcomes(options: InboundOptions) {
  const { name, api, logger, broker } = options;

  /**
   * A message to the tapper as a reply to the question; in groups it starts with their name as a link
   * that reaches them (`tg://user?id=`: a selective force-reply only reaches mentioned users).
   */
  async function tellTapper(place: TapPlace, text: string, extra: object, failure: string) {
    const { query, message, chat } = place;
    const mention =
      message.chat.type === "private"
        ? ""
        : `<a href="tg://user?id=${query.from.id}">${escapeHtml(clipText(query.from.first_name, 64))}</a>: `;
    try {
      const sent = await api.sendMessage(chat.chatId, `${mention}${renderPlain(text, 3000)}`, {
        ...threadOptions(chat),
        reply_parameters: { message_id: message.message_id, allow_sending_without_reply: true },
        ...extra,
      });
      return sent.message_id;
    } catch (error) {
      logger.warn({ channel: name, err: describeError(error) }, failure);
      return undefined;
    }
  }

  /**
   * Other…: a selective force-reply with the placeholder, recorded as the question's message, so a reply
   * to it belongs to this question even when others are pending.
   */
  async function askForText(place: TapPlace, outcome: Extract<ShownOutcome, { kind: "awaiting_text" }>) {
    const placeholder = clipText(outcome.placeholder, INPUT_FIELD_PLACEHOLDER_MAX_CHARS);
    const markup = { force_reply: true, selective: true, input_field_placeholder: placeholder } as const;
    const extra = { parse_mode: "HTML", reply_markup: markup } as const;
    const messageId = await tellTapper(place, outcome.text, extra, "could not ask for the Other… answer");
    if (messageId === undefined) return;
    const ref = { channel: name, conversation: formatConversation(place.chat), messageId: String(messageId) };
    await broker.rememberMessage(outcome.record.id, ref).catch((error: unknown) => {
      const details = { channel: name, questionId: outcome.record.id, err: describeError(error) };
      logger.error(details, "could not remember the Other… prompt");
    });
  }

  /**
   * The outcome in the answer to the query (a refusal or a Send with gaps as an alert, a staged choice
   * as a toast); when the deadline answered it already, a refusal is sent as a reply instead.
   */
  return async (tap: Tap, place: TapPlace, outcome: ShownOutcome): Promise<void> => {
    const alert = outcome.kind === "refused" || outcome.kind === "invalid";
    const text = clipText(outcome.text, CALLBACK_ANSWER_TEXT_MAX_CHARS);
    const answered = await tap.answer(text === "" ? {} : { text, show_alert: alert });
    if (outcome.kind === "awaiting_text") await askForText(place, outcome);
    else if (!answered && alert)
      await tellTapper(place, outcome.text, HTML, "could not tell a late tap's refusal");
    if (!showsForm(outcome)) return;
    await options.showForm(place.chat, place.message.message_id, outcome.record).catch((error: unknown) => {
      logger.warn({ channel: name, err: describeError(error) }, "could not show the form after a tap");
    });
  };
}

/** The channel's middleware (`bot.use(...)`): a composer, so updates it does not own reach the host's handlers. */
export function createInbound<C extends Context>(options: InboundOptions): Composer<C> {
  const { name, api, logger, broker, messages, defaultLocale } = options;
  const composer = new Composer<C>();
  const showOutcome = createTapOutcomes(options);
  const failed = (ctx: Context, what: string) => (error: unknown) =>
    logger.error({ channel: name, updateId: ctx.update.update_id, err: describeError(error) }, what);

  const ours = composer.filter(() => options.running());
  ours.use(createTapDeadline<C>({ name, api, logger }));
  ours.use(createDedupe<C>(options));

  ours.on("callback_query:data", async (ctx, next) => {
    const { callbackQuery: query } = ctx;
    const tap = tapOf(ctx);
    if (!query.message || !tap) {
      tap?.release();
      return next();
    }
    const place: TapPlace = { chat: chatOf(query.message), query, message: query.message };
    // A refresh of this message waits until the tap chose the question it shows.
    const key = `${place.chat.chatId}:${query.message.message_id}`;
    const tapped = messages.tapping(key);
    let outcome: InboundOutcome;
    try {
      const conversation = formatConversation(place.chat);
      const actor = actorOf(query.from, defaultLocale);
      outcome = await broker.handleAction({ channel: name, conversation, ...actor, data: query.data });
      // A control shows its question; a Send with gaps shows the first question still needing an answer.
      if (outcome.kind === "staged") messages.view(key, outcome.questionIndex);
      else if (outcome.kind !== "ignored" && showsForm(outcome))
        messages.view(key, firstOpenQuestion(outcome.record));
    } catch (error) {
      failed(ctx, "tap failed")(error);
      await tap.answer({});
      return;
    } finally {
      tapped();
    }
    if (outcome.kind !== "ignored") return showOutcome(tap, place, outcome);
    if (tap.late) return; // answered already: the host's handlers could not answer it again
    tap.release();
    return next();
  });

  ours.on("message:text", async (ctx, next) => {
    const message = ctx.message;
    const text = message.from.is_bot ? undefined : replyText(message, ctx.me.username);
    if (text === undefined) return next();
    const replyTo = message.reply_to_message?.message_id;
    const outcome = await broker
      .handleReply({
        channel: name,
        conversation: formatConversation(chatOf(message)),
        ...actorOf(message.from, defaultLocale),
        text,
        messageId: String(message.message_id),
        ...(replyTo === undefined ? {} : { replyTo: String(replyTo) }),
      })
      .catch(failed(ctx, "reply failed"));
    if (outcome?.kind === "ignored") return next();
  });

  return composer;
}
