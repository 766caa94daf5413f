/**
 * @ask-user/slack — ask_user on Slack: a single single-select question gets Block Kit buttons (with
 * Other… opening a modal and Skip), a form (several questions, multi-select) radio buttons or checkboxes
 * per question with Other…, Send and Skip; answers by tap, modal, thread reply or direct message. Runs as a `ChannelPlugin` in a host (`@ask-user/slack/plugin`), or mounts on your
 * own Bolt `App`.
 *
 * @example
 * ```ts
 * import { createSlackChannel } from "@ask-user/slack";
 * const slack = createSlackChannel({ app });
 * const askUser = createAskUser({ store, channels: [slack.channel] });
 * slack.attach(askUser);
 * await app.start();
 * ```
 */
export { createSlackChannel, type SlackChannel, type SlackChannelOptions } from "./channel.ts";
export { readSlackConfig, SLACK_VARIABLES, type SlackConfig } from "./config.ts";
export {
  conversationProblem,
  formatConversation,
  parseConversation,
  type SlackConversation,
} from "./conversation.ts";
export { isSettledEditError, toChannelError } from "./errors.ts";
export { formFits, renderForm } from "./form.ts";
export * as slackLimits from "./limits.ts";
export { ANSWER_ACTION_ID, ANSWER_BLOCK_ID, type ModalMetadata, renderOtherModal } from "./modal.ts";
export { channelPlugin } from "./plugin.ts";
export {
  createWebhookReceiver,
  type WebhookHandler,
  type WebhookReceiver,
  type WebhookReceiverOptions,
} from "./receiver.ts";
export {
  escapeMrkdwn,
  renderNotice,
  renderQuestion,
  renderSummary,
  renderText,
  type SlackMessage,
  slackDate,
  slackTime,
} from "./render.ts";
export { SLACK_RETRY_POLICY, type SlackRetryPolicy } from "./retry.ts";
