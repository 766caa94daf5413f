/**
 * @ask-user/telegram — ask_user on Telegram with grammY: mount the channel on your own bot
 * (`createTelegramChannel`), or run it from the environment (`runTelegram`, and `src/main.ts`).
 *
 * @example
 * const telegram = createTelegramChannel({ bot, broker: () => askUser });
 * const askUser = createAskUser({ store, channels: [telegram.channel] });
 */
export { createTelegramChannel, type TelegramChannel, type TelegramChannelOptions } from "./channel.ts";
export { type ChatRef, formatConversation, parseConversation } from "./conversation.ts";
export { type HandlerServer, serveHandler, type WebhookHandler } from "./http-server.ts";
export * as telegramLimits from "./limits.ts";
export { type MainIo, main } from "./main.ts";
export { type Polling, type PollingOptions, startPolling } from "./polling.ts";
export { renderKeyboard, renderPrompt } from "./render.ts";
export { type RetryOptions, retryTransformer } from "./retry.ts";
export {
  type RunningTelegram,
  type RunTelegramOptions,
  readTelegramEnv,
  runTelegram,
  type TelegramLogger,
} from "./run.ts";
export { createWebhookHandler, type WebhookHandlerOptions } from "./webhook.ts";
