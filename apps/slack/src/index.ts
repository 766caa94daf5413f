/**
 * @ask-user/slack — ask_user on Slack (Block Kit buttons or a form, an Other… modal, thread and DM
 * replies): a `ChannelPlugin` for hosts (`@ask-user/slack/plugin`), or `createSlackChannel` on your own
 * Bolt `App`. See the README.
 */
export { createSlackChannel, type SlackChannel, type SlackChannelOptions } from "./adapter.ts";
export { readSlackConfig, SLACK_VARIABLES, type SlackConfig } from "./config.ts";
export {
  conversationProblem,
  formatConversation,
  parseConversation,
  type SlackConversation,
} from "./conversation.ts";
export {
  isSettledEditError,
  SLACK_RETRY_POLICY,
  type SlackRetryPolicy,
  toChannelError,
} from "./errors.ts";
export {
  createWebhookReceiver,
  type WebhookHandler,
  type WebhookReceiver,
  type WebhookReceiverOptions,
} from "./ingress/receiver.ts";
export * as slackLimits from "./limits.ts";
export { ANSWER_ACTION_ID, ANSWER_BLOCK_ID, type ModalMetadata, renderOtherModal } from "./other-modal.ts";
export { channelPlugin } from "./plugin.ts";
export {
  escapeMrkdwn,
  renderNotice,
  renderSummary,
  type SlackMessage,
  slackDate,
  slackTime,
} from "./render/mrkdwn.ts";
export { promptMessage, renderPrompt, slackView } from "./render/prompt.ts";
