/**
 * @ask-user/slack — ask_user on Slack: a single single-select question gets Block Kit buttons (with
 * Other… opening a modal and Skip), a form (several questions, multi-select) radio buttons or checkboxes
 * per question with Other…, Send and Skip; answers by tap, modal, thread reply or direct message. Runs as
 * a `ChannelPlugin` in a host (`@ask-user/slack/plugin`), or mounts on your own Bolt `App`.
 *
 * @example
 * ```ts
 * import { createSlackChannel } from "@ask-user/slack";
 * const slack = createSlackChannel({ app });
 * const askUser = createAskUser({ store, channels: [slack] });
 * await slack.start(askUser);
 * await app.start();
 * ```
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
