/**
 * The channel's Bot API client and its prompt messages (sent, edited as the form's draft changes, edited
 * to the summary; form state in core's `createPromptMessages`). 429 and 5xx are retried by auto-retry; a
 * network failure only for {@link IDEMPOTENT_METHODS}: a `sendMessage` whose connection failed may have
 * been delivered, and a second prompt with live buttons is worse than an undeliverable question. So idle
 * connections are closed rather than reused (a server closing one just as a request is written resets it).
 */
import { Agent as HttpAgent } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import {
  createPromptMessages,
  type DeliverRequest,
  type DeliveryRef,
  type FinalizeRequest,
  type PromptMessages,
  pause,
  promptAudience,
  type QuestionRecord,
  type RefreshRequest,
} from "@ask-user/core/channel";
import { autoRetry } from "@grammyjs/auto-retry";
import { Api, type ApiClientOptions, HttpError } from "grammy";
import { chatOrThrow, type TelegramConversation, threadOptions } from "./conversation.ts";
import { isSettledEditError, toChannelError } from "./errors.ts";
import {
  KEEP_ALIVE_IDLE_MAX_MS,
  NETWORK_RETRY_DELAY_MS,
  RETRY_AFTER_MAX_SECONDS,
  RETRY_MAX_ATTEMPTS,
} from "./limits.ts";
import { promptView, type RenderedMessage, renderPlain, renderPrompt } from "./render/prompt.ts";

/** Methods whose second try changes nothing when the first reached Telegram (a repeated edit is "not modified"). */
export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set([
  "getMe",
  "getChat",
  "getChatMember",
  "getWebhookInfo",
  "setWebhook",
  "deleteWebhook",
  "editMessageText",
  "editMessageReplyMarkup",
  "setMessageReaction",
  "answerCallbackQuery",
]);

/** A Bot API client with the channel's retries, e.g. `createChannelApi(bot.token, bot.api.options)`. */
export function createChannelApi(token: string, options: ApiClientOptions = {}): Api {
  const settings = { keepAlive: true, timeout: KEEP_ALIVE_IDLE_MAX_MS };
  const agent = options.apiRoot?.startsWith("http:") ? new HttpAgent(settings) : new HttpsAgent(settings);
  const api = new Api(token, { ...options, baseFetchConfig: { agent, ...options.baseFetchConfig } });
  // A network failure of an idempotent call: tried again, 1 s then 2 s apart; other methods fail at once.
  api.config.use(async (prev, method, payload, signal) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await prev(method, payload, signal);
      } catch (error) {
        const retry =
          error instanceof HttpError && IDEMPOTENT_METHODS.has(method) && attempt < RETRY_MAX_ATTEMPTS;
        if (!retry || signal?.aborted === true) throw error;
        // grammY's signal type comes from a polyfill; at run time it is the platform's AbortSignal.
        await pause(NETWORK_RETRY_DELAY_MS * 2 ** (attempt - 1), signal as AbortSignal | undefined);
      }
    }
  });
  api.config.use(
    autoRetry({
      maxRetryAttempts: RETRY_MAX_ATTEMPTS - 1,
      maxDelaySeconds: RETRY_AFTER_MAX_SECONDS,
      rethrowInternalServerErrors: false,
      rethrowHttpErrors: true,
    }),
  );
  return api;
}

/** How every message of the channel is sent: HTML, no link previews. */
export const HTML = { parse_mode: "HTML", link_preview_options: { is_disabled: true } } as const;

/** The prompt messages of a channel whose calls go through `api`, and their form state. */
export function createPrompts(api: Api) {
  // By "<chatId>:<messageId>": the question each form shows, taps in flight.
  const messages: PromptMessages = createPromptMessages();
  const keyOf = (chat: TelegramConversation, messageId: number) => `${chat.chatId}:${messageId}`;
  const reply = (message: RenderedMessage) =>
    message.replyMarkup === undefined ? {} : { reply_markup: message.replyMarkup };

  /** Without a keyboard, the edit removes the one shown. "Not modified" and "not found" are done. */
  const edit = async (chat: TelegramConversation, messageId: number, message: RenderedMessage) => {
    try {
      await api.editMessageText(chat.chatId, messageId, message.html, { ...HTML, ...reply(message) });
    } catch (error) {
      if (!isSettledEditError(error)) throw toChannelError(error, "editMessageText");
    }
  };

  /** Edits a form's message to show `record` (or a newer one seen) at the question it shows. */
  const showForm = (chat: TelegramConversation, messageId: number, record: QuestionRecord) => {
    const key = keyOf(chat, messageId);
    return messages.show(key, record, (latest) => {
      const shown = messages.view(key);
      const forName = promptAudience(latest, chat.chatId > 0);
      const view = promptView(latest, {
        replyToMessage: chat.chatId < 0,
        ...(shown === undefined ? {} : { shown }),
        ...(forName === undefined ? {} : { forName }),
      });
      const message = renderPrompt(view);
      return { sameness: JSON.stringify(message), send: () => edit(chat, messageId, message) };
    });
  };

  return {
    messages,
    showForm,
    async deliver({ record, text, buttons, forName }: DeliverRequest): Promise<DeliveryRef> {
      const chat = chatOrThrow(record.target?.conversation);
      // Groups (negative ids) run in privacy mode: the readable text says to reply to the message.
      const group = chat.chatId < 0;
      const view = promptView(record, {
        buttons,
        replyToMessage: group,
        ...(forName === undefined ? {} : { forName }),
      });
      const message = renderPrompt(view, group ? undefined : text);
      const sent = await api
        .sendMessage(chat.chatId, message.html, { ...HTML, ...threadOptions(chat), ...reply(message) })
        .catch((error: unknown) => {
          throw toChannelError(error, "sendMessage");
        });
      if (view.layout === "form")
        messages.sent(keyOf(chat, sent.message_id), record, JSON.stringify(message));
      return { messageId: String(sent.message_id) };
    },
    async finalize({ delivery, summary }: FinalizeRequest): Promise<void> {
      const chat = chatOrThrow(delivery.conversation);
      const messageId = Number(delivery.messageId);
      // After any form edit in flight, and no form edit after it.
      await messages.end(keyOf(chat, messageId), () => edit(chat, messageId, { html: renderPlain(summary) }));
    },
    async refresh({ record, delivery }: RefreshRequest): Promise<void> {
      // A prompt sent as text stays as it is.
      if (promptView(record).layout !== "form") return;
      await showForm(chatOrThrow(delivery.conversation), Number(delivery.messageId), record);
    },
  };
}
