/**
 * The Discord channel as a plugin hosts list (`@ask-user/discord/plugin`): its variables, its config
 * reader and its conversation ids, with no discord.js import — `create` loads the SDK-bound adapter.
 */
import { defineChannel } from "@ask-user/core/channel";
import { DISCORD_VARIABLES, type DiscordConfig, readDiscordConfig } from "./config.ts";
import { parseConversation } from "./conversation.ts";

/** On when `DISCORD_BOT_TOKEN` is set; ingress is the gateway connection: no webhook, no port. */
export const channelPlugin = defineChannel<DiscordConfig>({
  name: "discord",
  title: "Discord",
  variables: DISCORD_VARIABLES,
  readConfig: readDiscordConfig,
  parseConversation,
  async create(context) {
    const { create } = await import("./adapter.ts");
    return create(context);
  },
});
