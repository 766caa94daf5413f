/**
 * The Bot API calls the channel makes: its own client (the bot's client options plus bounded retries),
 * and the prompt messages — sent, edited as their form's draft changes, edited to the summary — with
 * their form state kept once, in core's `createPromptMessages`. Failures are core's `ChannelError`s.
 *
 * - 429 (after its `retry_after`, up to {@link RETRY_AFTER_MAX_SECONDS}) and 5xx answers: retried by
 *   `@grammyjs/auto-retry`, {@link RETRY_MAX_ATTEMPTS} tries in all. A 429 asking for longer fails at once.
 * - Network failures (timeout, reset): retried only for {@link IDEMPOTENT_METHODS}, which do no harm when
 *   Telegram did get the first try. A `sendMessage` whose connection failed may have been delivered:
 *   sending it again could leave a second prompt with live buttons, so it fails instead (auto-retry on
 *   its own would retry every method, without bound).
 * - Kept-alive connections idle for {@link KEEP_ALIVE_IDLE_MAX_MS} are closed rather than reused: a
 *   server closing an idle connection just as a request is written into it resets that request, and a
 *   reset `sendMessage` is not sent again.
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
import { Api, type ApiClientOptions, HttpError, type Transformer } from "grammy";
import { chatOrThrow, type TelegramConversation, threadOptions } from "./conversation.ts";
import { isSettledEditError, toChannelError } from "./errors.ts";
import {
  KEEP_ALIVE_IDLE_MAX_MS,
  NETWORK_RETRY_DELAY_MS,
  RETRY_AFTER_MAX_SECONDS,
  RETRY_MAX_ATTEMPTS,
} from "./limits.ts";
import { promptView, type RenderedMessage, renderPlain, renderPrompt } from "./render/prompt.ts";

/**
 * Bot API methods whose second try changes nothing when the first reached Telegram: reads, edits (a
 * repeat gets "message is not modified"), a reaction (set again to the same), answers to a callback query
 * (a repeat is refused, harmlessly) and the webhook registration.
 */
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

/**
 * A transformer that tries an idempotent call again after a network failure (`HttpError`), at most
 * {@link RETRY_MAX_ATTEMPTS} tries, pausing 1 s and then 2 s. Other methods fail at once.
 */
export function retryIdempotentCalls(): Transformer {
  return async (prev, method, payload, signal) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await prev(method, payload, signal);
      } catch (error) {
        const retry =
          error instanceof HttpError &&
          IDEMPOTENT_METHODS.has(method) &&
          attempt < RETRY_MAX_ATTEMPTS &&
          signal?.aborted !== true;
        if (!retry) throw error;
        // grammY's signal type comes from a polyfill; at run time it is the platform's AbortSignal.
        await pause(NETWORK_RETRY_DELAY_MS * 2 ** (attempt - 1), signal as AbortSignal | undefined);
      }
    }
  };
}

/** A keep-alive agent whose idle connections close after {@link KEEP_ALIVE_IDLE_MAX_MS} (Node's `timeout`). */
function agentFor(options: ApiClientOptions): HttpAgent {
  const settings = { keepAlive: true, timeout: KEEP_ALIVE_IDLE_MAX_MS };
  return options.apiRoot?.startsWith("http:") ? new HttpAgent(settings) : new HttpsAgent(settings);
}

/**
 * A Bot API client with the channel's retries (see the module comment).
 *
 * @example
 * const api = createChannelApi(bot.token, bot.api.options);
 * await api.sendMessage(chatId, "Hello"); // a 429 is waited out; a reset connection is not sent again
 */
export function createChannelApi(token: string, options: ApiClientOptions = {}): Api {
  const api = new Api(token, {
    ...options,
    baseFetchConfig: { agent: agentFor(options), ...options.baseFetchConfig },
  });
  api.config.use(retryIdempotentCalls());
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

/** The prompt messages of a channel (see the module comment). */
export interface Prompts {
  /** The form state, by `"<chatId>:<messageId>"`: the question each form shows, taps in flight. */
  messages: PromptMessages;
  deliver(request: DeliverRequest): Promise<DeliveryRef>;
  finalize(request: FinalizeRequest): Promise<void>;
  refresh(request: RefreshRequest): Promise<void>;
  /** Edits a form's message to show `record` (or a newer one seen) at the question it shows. */
  showForm(chat: TelegramConversation, messageId: number, record: QuestionRecord): Promise<void>;
}

/** Creates the prompt messages of a channel whose calls go through `api`. */
export function createPrompts(api: Api): Prompts {
  const messages = createPromptMessages();
  const keyOf = (chat: TelegramConversation, messageId: number) => `${chat.chatId}:${messageId}`;
  const reply = (message: RenderedMessage) =>
    message.replyMarkup === undefined ? {} : { reply_markup: message.replyMarkup };

  /** Edits a message; without a keyboard, the edit removes the one shown. "Not modified" and "not found" are done. */
  const edit = async (chat: TelegramConversation, messageId: number, message: RenderedMessage) => {
    try {
      await api.editMessageText(chat.chatId, messageId, message.html, { ...HTML, ...reply(message) });
    } catch (error) {
      if (!isSettledEditError(error)) throw toChannelError(error, "editMessageText");
    }
  };

  const showForm: Prompts["showForm"] = (chat, messageId, record) => {
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
    async deliver({ record, text, buttons, forName }) {
      const chat = chatOrThrow(record.target?.conversation);
      // Groups (negative ids) run in privacy mode: the readable text says to reply to the message.
      const group = chat.chatId < 0;
      const options = { buttons, replyToMessage: group, ...(forName === undefined ? {} : { forName }) };
      const view = promptView(record, options);
      const message = renderPrompt(view, group ? undefined : text);
      let messageId: number;
      try {
        const sent = await api.sendMessage(chat.chatId, message.html, {
          ...HTML,
          ...threadOptions(chat),
          ...reply(message),
        });
        messageId = sent.message_id;
      } catch (error) {
        throw toChannelError(error, "sendMessage");
      }
      if (view.layout === "form") messages.sent(keyOf(chat, messageId), record, JSON.stringify(message));
      return { messageId: String(messageId) };
    },
    async finalize({ delivery, summary }) {
      const chat = chatOrThrow(delivery.conversation);
      const messageId = Number(delivery.messageId);
      // After any form edit in flight, and no form edit after it.
      await messages.end(keyOf(chat, messageId), () => edit(chat, messageId, { html: renderPlain(summary) }));
    },
    async refresh({ record, delivery }) {
      // A prompt sent as text stays as it is.
      if (promptView(record).layout !== "form") return;
      await showForm(chatOrThrow(delivery.conversation), Number(delivery.messageId), record);
    },
  };
}
