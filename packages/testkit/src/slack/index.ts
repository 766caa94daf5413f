/**
 * Fake Slack for tests: a local Web API, `response_url` endpoint, request signer and Socket Mode server
 * that the real Bolt talks to over 127.0.0.1.
 *
 * @example
 * ```ts
 * import { createFakeSlack } from "@ask-user/testkit/slack";
 * const slack = await createFakeSlack();
 * const app = new App({ token: slack.botToken, signingSecret: slack.signingSecret,
 *   clientOptions: { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } } });
 * ```
 */
export { checkBlocks, checkView, type Surface } from "./blocks.ts";
export type { HeldCalls } from "./hold.ts";
export type { ChooseOptions, ClickOptions } from "./interactions.ts";
export * as slackLimits from "./limits.ts";
export { createFakeSlack, type FakeSlack, type FakeSlackOptions } from "./server.ts";
export { signedHeaders, signSlackRequest } from "./signer.ts";
export { messageText } from "./text.ts";
export type { HttpDeliveryOptions } from "./transport.ts";
export type {
  ApiCall,
  Delivery,
  Failure,
  FakeEphemeral,
  FakeMessageMetadata,
  FakeReaction,
  FakeSlackMessage,
  FakeView,
  Interaction,
  ResponseUrlPost,
  SentMessage,
  SlackBlock,
  SlackUserInit,
} from "./types.ts";
export type { FakeSlackUser, SayOptions } from "./users.ts";
