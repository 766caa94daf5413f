/**
 * Fake Telegram Bot API for tests: a local server that the real grammY talks to over 127.0.0.1.
 *
 * @example
 * ```ts
 * import { createFakeTelegram } from "@ask-user/testkit/telegram";
 * const tg = await createFakeTelegram();
 * const bot = new Bot(tg.token, { client: { apiRoot: tg.apiRoot } });
 * ```
 */
export * as telegramLimits from "./limits.ts";
export {
  createFakeTelegram,
  type FakeTelegram,
  type FakeTelegramOptions,
  type HeldCalls,
} from "./server.ts";
export type {
  ApiCall,
  CallbackAnswer,
  DroppedUpdate,
  Failure,
  FakeMessage,
  TgCallbackQuery,
  TgChat,
  TgEntity,
  TgInlineButton,
  TgInlineKeyboard,
  TgMessage,
  TgReplyMarkup,
  TgUpdate,
  TgUser,
  UserInit,
  WebhookDelivery,
} from "./types.ts";
export type { FakeUser, SendTextOptions, TapOptions } from "./users.ts";
