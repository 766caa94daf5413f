/**
 * The Telegram channel as a plugin hosts list (`@ask-user/telegram/plugin`): its variables, its config
 * reader and its conversation ids, without loading grammY — `create` loads the SDK-bound half.
 */
import { defineChannel } from "@ask-user/core/channel";
import { readTelegramConfig, TELEGRAM_VARIABLES, type TelegramConfig } from "./config.ts";
import { parseConversation } from "./conversation.ts";

/** `TELEGRAM_BOT_TOKEN` turns it on; long polling, or the webhook with `TELEGRAM_WEBHOOK_URL` and `_SECRET`. */
export const channelPlugin = defineChannel<TelegramConfig>({
  name: "telegram",
  title: "Telegram",
  variables: TELEGRAM_VARIABLES,
  readConfig: readTelegramConfig,
  parseConversation,
  async create(context) {
    const { create } = await import("./adapter.ts");
    return create(context);
  },
});
