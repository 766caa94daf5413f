/**
 * @ask-user/slack — ask_user on Slack: a single single-select question gets Block Kit buttons (with
 * Other… opening a modal and Skip), everything else readable text; answers by tap, modal, thread reply
 * or direct message. Mounts on your Bolt `App` (Socket Mode or HTTP), or runs alone from the environment.
 *
 * @example
 * ```ts
 * import { createSlackChannel } from "@ask-user/slack";
 * const slack = createSlackChannel({ app, broker: () => askUser });
 * const askUser = createAskUser({ store, channels: [slack.channel] });
 * ```
 */
export { createSlackChannel, type SlackChannel, type SlackChannelOptions } from "./channel.ts";
export { type HandlerServer, serveHandler } from "./http-server.ts";
export * as slackLimits from "./limits.ts";
export { SLACK_RETRY_POLICY } from "./limits.ts";
export { type MainIo, main } from "./main.ts";
export {
  createWebhookReceiver,
  type WebhookHandler,
  type WebhookReceiver,
  type WebhookReceiverOptions,
} from "./receiver.ts";
export {
  ANSWER_ACTION_ID,
  ANSWER_BLOCK_ID,
  escapeMrkdwn,
  type ModalMetadata,
  renderNotice,
  renderOtherModal,
  renderQuestion,
  renderSummary,
  renderText,
  type SlackMessage,
  slackDate,
} from "./render.ts";
export {
  type RunningSlack,
  type RunSlackOptions,
  readSlackEnv,
  runSlack,
  type SlackConfig,
  type SlackLogger,
} from "./run.ts";
export { parseAddress, type SlackAddress, threadConversation } from "./target.ts";
export type { People, Person } from "./users.ts";
