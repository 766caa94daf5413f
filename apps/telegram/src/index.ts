/**
 * @ask-user/telegram — ask_user on Telegram with grammY: the channel plugin hosts list (`channelPlugin`,
 * also at `@ask-user/telegram/plugin`), or the channel mounted on your own bot (`createTelegramChannel`).
 */
export {
  createTelegramChannel,
  type TelegramAdapter,
  type TelegramChannel,
  type TelegramChannelOptions,
} from "./adapter.ts";
export {
  readTelegramConfig,
  TELEGRAM_VARIABLES,
  type TelegramConfig,
  type TelegramWebhookConfig,
} from "./config.ts";
export { formatConversation, parseConversation, type TelegramConversation } from "./conversation.ts";
export { isSettledEditError, toChannelError } from "./errors.ts";
export { type Polling, type PollingOptions, startPolling } from "./ingress/polling.ts";
export { createWebhookHandler, type WebhookHandler, type WebhookHandlerOptions } from "./ingress/webhook.ts";
export * as telegramLimits from "./limits.ts";
export { CONFIRMED_REACTION, SKIPPED_REACTION } from "./notices.ts";
export { createChannelApi, IDEMPOTENT_METHODS } from "./outbound.ts";
export { channelPlugin } from "./plugin.ts";
export { promptView, type RenderedMessage, renderKeyboard, renderPrompt } from "./render/prompt.ts";
