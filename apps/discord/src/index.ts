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
export {
  ANSWER_INPUT_ID,
  deadlineText,
  escapeMarkdown,
  missingIntentHint,
  type PromptContext,
  type RenderedMessage,
  renderButtonPrompt,
  renderButtons,
  renderNotice,
  renderOtherModal,
  renderTextPrompt,
  shorten,
} from "./render.ts";
export {
  type DiscordEnv,
  type RunDiscordOptions,
  type RunningDiscord,
  readDiscordEnv,
  runDiscord,
} from "./run.ts";
