/** The Telegram implementation of core's `Channel` port, mounted on a grammY `Bot` the host already has. */
import {
  type AskUserBroker,
  AskUserError,
  type AskUserLogger,
  type Channel,
  type ChannelIngress,
  type Coordination,
  consoleLogger,
  isForm,
} from "@ask-user/core";
import { Api, type Bot, type Context } from "grammy";
import { createChannelApi } from "./api.ts";
import { chatOrThrow, parseConversation, threadOptions } from "./conversation.ts";
import { isSettledEditError, toChannelError } from "./errors.ts";
import { firstOpenQuestion, formFits, renderForm } from "./form.ts";
import { createFormMessages, formContext } from "./form-messages.ts";
import { createInbound } from "./inbound.ts";
import { BUTTON_LABEL_MAX_CHARS, INLINE_KEYBOARD_MAX_BUTTONS } from "./limits.ts";
import { lookUpName } from "./names.ts";
import { sendNotice } from "./notice.ts";
import { renderPlain, renderPrompt } from "./render.ts";

/** Options of {@link createTelegramChannel}. */
export interface TelegramChannelOptions<C extends Context = Context> {
  /** The host's grammY bot; `attach` adds one middleware to it and leaves the rest alone. */
  bot: Bot<C>;
  /** Where handler failures are reported (default: stderr). */
  logger?: AskUserLogger;
  /**
   * Shared with the other instances on the same store (every `QuestionStore` is one): each update is
   * handled once across all of them. Without it, redeliveries are dropped by this process alone.
   */
  coordination?: Coordination;
  /** Locale for users without a supported `language_code` (default: the broker's locale). */
  defaultLocale?: string;
  /** The channel's name in targets (default `"telegram"`). */
  name?: string;
  /** How the bot receives updates, for `capabilities.ingress` (default `"polling"`, grammY's `bot.start`). */
  ingress?: Extract<ChannelIngress, "polling" | "webhook">;
}

/** What {@link createTelegramChannel} returns. */
export interface TelegramChannel {
  /** Core's channel port: pass it to `createAskUser({ channels })`. */
  channel: Channel;
  /**
   * Second phase, once the broker exists: registers the channel's middleware on the bot (`bot.use`),
   * so taps and replies go to `broker`. Handlers the bot had before come first and see every update;
   * handlers added afterwards get what the channel passes on. Call it once.
   */
  attach(broker: AskUserBroker): void;
}

/**
 * Mounts ask-user on an existing grammY bot, in two phases: create the channel (for the broker), then
 * `attach(broker)`. A lone single-select question arrives with one button per option; a form (several
 * questions, or a multi-select one) shows one question at a time over buttons that stage the shared
 * draft (✓), ‹ Back / Next ›, Skip and Send; taps and text replies go to the broker, and every other
 * update passes on to the bot's own handlers.
 * Conversations are chat ids, or `"<chatId>:<threadId>"` for forum topics. The channel's Bot API calls
 * go through its own client (the bot's options plus bounded retries); `bot.api` is left as it is.
 *
 * @example
 * const bot = new Bot(process.env.TELEGRAM_BOT_TOKEN ?? "");
 * bot.command("start", (ctx) => ctx.reply("Hi!")); // keeps working
 * const telegram = createTelegramChannel({ bot });
 * const askUser = createAskUser({ store: createMemoryStore(), channels: [telegram.channel] });
 * telegram.attach(askUser);
 * void bot.start();
 * const result = await askUser.ask(input, { target: { channel: "telegram", conversation: "123456789" } });
 */
export function createTelegramChannel<C extends Context>(
  options: TelegramChannelOptions<C>,
): TelegramChannel {
  const name = options.name ?? "telegram";
  const logger = options.logger ?? consoleLogger;
  const api = createChannelApi(options.bot.token, options.bot.api.options);
  // Names are looked up while a question is created: one try, no retries that would hold it up.
  const lookup = new Api(options.bot.token, options.bot.api.options);
  let attached = false;
  const forms = createFormMessages(api);

  const channel: Channel = {
    name,
    capabilities: {
      buttons: true,
      edit: true,
      privateNotices: false,
      maxButtons: INLINE_KEYBOARD_MAX_BUTTONS,
      maxButtonLabel: BUTTON_LABEL_MAX_CHARS,
      ingress: options.ingress ?? "polling",
    },
    // Private chats have positive ids; groups, supergroups and channels negative ones.
    isDirect: (conversation) => (parseConversation(conversation)?.chatId ?? 0) > 0,
    async deliver(request) {
      const { record } = request;
      const chat = chatOrThrow(record.target?.conversation);
      const form = isForm(record.prompt) && formFits(record.prompt);
      // Groups (negative ids) run in privacy mode: the readable text says to reply to the message.
      const rendered = form
        ? renderForm(record, firstOpenQuestion(record), formContext(record, chat))
        : renderPrompt({ ...request, replyToMessage: chat.chatId < 0 });
      let messageId: number;
      try {
        const sent = await api.sendMessage(chat.chatId, rendered.html, {
          parse_mode: "HTML",
          link_preview_options: { is_disabled: true },
          ...threadOptions(chat),
          ...(rendered.replyMarkup === undefined ? {} : { reply_markup: rendered.replyMarkup }),
        });
        messageId = sent.message_id;
      } catch (error) {
        throw toChannelError(error, "sendMessage");
      }
      if (form) forms.sent({ chat, messageId }, record, rendered);
      return { messageId: String(messageId) };
    },
    async finalize({ delivery, summary }) {
      const chat = chatOrThrow(delivery.conversation);
      const messageId = Number(delivery.messageId);
      // After any form edit in flight, and no form edit after it.
      await forms.end({ chat, messageId }, async () => {
        try {
          // No reply_markup: Telegram drops the inline keyboard with the edit.
          await api.editMessageText(chat.chatId, messageId, renderPlain(summary), {
            parse_mode: "HTML",
            link_preview_options: { is_disabled: true },
          });
        } catch (error) {
          if (isSettledEditError(error)) return;
          throw toChannelError(error, "editMessageText");
        }
      });
    },
    async refresh({ record, delivery }) {
      if (!isForm(record.prompt) || !formFits(record.prompt)) return;
      const chat = chatOrThrow(delivery.conversation);
      await forms.show({ chat, messageId: Number(delivery.messageId) }, record);
    },
    notify: (notice) => sendNotice({ api, logger, name }, notice),
    displayName: (userId, conversation) => lookUpName(lookup, userId, conversation),
  };

  return {
    channel,
    attach(broker) {
      if (attached) throw new AskUserError("invalid_input", "The Telegram channel is attached already.");
      attached = true;
      options.bot.use(
        createInbound<C>({
          name,
          api,
          logger,
          broker,
          forms,
          ...(options.coordination === undefined ? {} : { coordination: options.coordination }),
          ...(options.defaultLocale === undefined ? {} : { defaultLocale: options.defaultLocale }),
        }),
      );
    },
  };
}
