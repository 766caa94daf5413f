/**
 * @ask-user/telegram — ask_user on Telegram with grammY: the channel plugin hosts list (`channelPlugin`,
 * also at `@ask-user/telegram/plugin`), or the channel mounted on your own bot (`createTelegramChannel`).
 *
 * @example
 * const telegram = createTelegramChannel({ bot });
 * const askUser = createAskUser({ store, channels: [telegram.channel] });
 * telegram.attach(askUser);
 */
export { createChannelApi, IDEMPOTENT_METHODS } from "./api.ts";
export { createTelegramChannel, type TelegramChannel, type TelegramChannelOptions } from "./channel.ts";
export {
  readTelegramConfig,
  TELEGRAM_VARIABLES,
  type TelegramConfig,
  type TelegramWebhookConfig,
} from "./config.ts";
export { formatConversation, parseConversation, type TelegramConversation } from "./conversation.ts";
export { isSettledEditError, toChannelError } from "./errors.ts";
export { type FormContext, firstOpenQuestion, formFits, renderForm, renderFormKeyboard } from "./form.ts";
export * as telegramLimits from "./limits.ts";
export { CONFIRMED_REACTION, SKIPPED_REACTION } from "./notice.ts";
export { channelPlugin } from "./plugin.ts";
export { type Polling, type PollingOptions, startPolling } from "./polling.ts";
export { renderKeyboard, renderPrompt } from "./render.ts";
export { createWebhookHandler, type WebhookHandler, type WebhookHandlerOptions } from "./webhook.ts";
