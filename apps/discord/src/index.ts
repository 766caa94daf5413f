/**
 * @ask-user/discord — ask_user on Discord with discord.js: mount the channel on your own client
 * (`createDiscordChannel`), or run it from the environment (`runDiscord`, and `src/main.ts`).
 *
 * @example
 * const discord = createDiscordChannel({ client, broker: () => askUser });
 * const askUser = createAskUser({ store, channels: [discord.channel] });
 */
export { createDiscordChannel, type DiscordChannel, type DiscordChannelOptions } from "./channel.ts";
export { type DiscordTarget, dmConversation, parseTarget } from "./conversation.ts";
export type { DiscordLogger } from "./inbound.ts";
export * as discordLimits from "./limits.ts";
export { type MainIo, main } from "./main.ts";
export { mentionOf, nameOf, renderNotice, renderSummaryNotice } from "./notice.ts";
export {
  ANSWER_INPUT_ID,
  deadlineText,
  escapeMarkdown,
  missingIntentHint,
  type PromptContext,
  type RenderedMessage,
  renderButtonPrompt,
  renderButtons,
  renderOtherModal,
  renderTextPrompt,
  shorten,
} from "./render.ts";
export { replyText } from "./reply-text.ts";
export {
  type DiscordEnv,
  type RunDiscordOptions,
  type RunningDiscord,
  readDiscordEnv,
  runDiscord,
} from "./run.ts";
