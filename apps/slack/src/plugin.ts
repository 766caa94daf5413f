/**
 * The Slack channel as a `ChannelPlugin`, what a host lists to run Slack. Light on purpose — core, the
 * config reader and conversation ids only; `create` loads Bolt (`adapter.ts`), so a host without
 * `SLACK_BOT_TOKEN` never does.
 */
import { defineChannel } from "@ask-user/core/channel";
import { readSlackConfig, SLACK_VARIABLES } from "./config.ts";
import { parseConversation } from "./conversation.ts";

export const channelPlugin = defineChannel({
  name: "slack",
  title: "Slack",
  variables: SLACK_VARIABLES,
  readConfig: readSlackConfig,
  parseConversation,
  create: async (context) => (await import("./adapter.ts")).create(context),
});
