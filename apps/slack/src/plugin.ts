/**
 * The Slack channel as a `ChannelPlugin`: what a host (the gateway, the standalone runner, your own
 * server) lists to run Slack. Light on purpose — core, the config reader and conversation ids only;
 * `create` loads Bolt (`adapter.ts`), so a host without `SLACK_BOT_TOKEN` never does.
 *
 * @example
 * ```ts
 * import { channelPlugin } from "@ask-user/slack/plugin";
 * if (channelPlugin.enabled(process.env)) {
 *   const config = channelPlugin.readConfig(process.env); // InvalidChannelConfigError lists every problem
 *   const slack = await channelPlugin.create({ config, logger, coordination: store, instanceId: "a" });
 *   const askUser = createAskUser({ store, channels: [slack] });
 *   await slack.start(askUser); // Socket Mode connects; HTTP mode: serve slack.handleWebhook
 * }
 * ```
 */
import { defineChannel } from "@ask-user/core/channel";
import { readSlackConfig, SLACK_VARIABLES } from "./config.ts";
import { parseConversation } from "./conversation.ts";

/** The Slack channel plugin: `name` `"slack"`, configured by the `SLACK_*` variables. */
export const channelPlugin = defineChannel({
  name: "slack",
  title: "Slack",
  variables: SLACK_VARIABLES,
  readConfig: readSlackConfig,
  parseConversation,
  async create(context) {
    const { create } = await import("./adapter.ts");
    return create(context);
  },
});
