/**
 * The Discord channel as a plugin hosts list (`@ask-user/discord/plugin`): its variables, its config
 * reader and its conversation ids, with no discord.js import — `create` loads the SDK-bound adapter.
 */
import { defineChannel } from "@ask-user/core/channel";
import { DISCORD_VARIABLES, type DiscordConfig, readDiscordConfig } from "./config.ts";
import { parseConversation } from "./conversation.ts";

/**
 * The Discord channel plugin: on when `DISCORD_BOT_TOKEN` is set; `create` checks the token and builds
 * the channel, `start(broker)` connects to the gateway (one instance per
 * token holds the connection, the others send over REST). Ingress is the gateway connection: no
 * webhook, no port.
 *
 * @example
 * import { channelPlugin } from "@ask-user/discord/plugin";
 * if (channelPlugin.enabled(process.env)) {
 *   const config = channelPlugin.readConfig(process.env);
 *   const discord = await channelPlugin.create({ config, logger, coordination: store, instanceId });
 *   const askUser = createAskUser({ store, channels: [discord] });
 *   await discord.start(askUser);
 *   console.log(discord.describe); // discord (@ask_bot, gateway)
 * }
 */
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
