/**
 * The Telegram channel as a plugin hosts list (`@ask-user/telegram/plugin`): its variables, its config
 * reader and its conversation ids, without loading grammY — `create` loads the SDK-bound half.
 */
import { defineChannel } from "@ask-user/core/channel";
import { readTelegramConfig, TELEGRAM_VARIABLES, type TelegramConfig } from "./config.ts";
import { parseConversation } from "./conversation.ts";

/**
 * The Telegram channel plugin: `TELEGRAM_BOT_TOKEN` turns it on; long polling by default, webhook mode
 * with `TELEGRAM_WEBHOOK_URL` and `TELEGRAM_WEBHOOK_SECRET`.
 *
 * @example
 * import { channelPlugin } from "@ask-user/telegram/plugin";
 * if (channelPlugin.enabled(process.env)) {
 *   const config = channelPlugin.readConfig(process.env); // InvalidChannelConfigError lists every problem
 *   const telegram = await channelPlugin.create({ config, logger, coordination: store, instanceId: "1" });
 *   const askUser = createAskUser({ store, channels: [telegram] });
 *   await telegram.start(askUser);
 *   console.log(telegram.describe); // telegram (@my_bot, long polling)
 * }
 */
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
