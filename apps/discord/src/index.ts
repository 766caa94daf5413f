/**
 * @ask-user/discord — ask_user on Discord with discord.js: mount the channel on your own client
 * (`createDiscordChannel`, then `start(broker)`), or let a host run it from the environment
 * (`channelPlugin`, also at `@ask-user/discord/plugin`).
 */
export { createDiscordChannel, type DiscordChannel, type DiscordChannelOptions } from "./adapter.ts";
export { DISCORD_VARIABLES, type DiscordConfig, readDiscordConfig } from "./config.ts";
export { type DiscordConversation, formatConversation, parseConversation } from "./conversation.ts";
export { isSettledEditError, toChannelError } from "./errors.ts";
export * as discordLimits from "./limits.ts";
export { renderOtherModal } from "./other-modal.ts";
export { channelPlugin } from "./plugin.ts";
export { deadlineText, discordTime, escapeMarkdown, shorten } from "./render/markdown.ts";
export {
  mentionOf,
  nameOf,
  renderNotice,
  renderSummaryContent,
  renderSummaryNotice,
} from "./render/notice.ts";
export {
  type ButtonRows,
  discordView,
  missingIntentHint,
  type RenderedMessage,
  renderButtons,
  renderFormComponents,
  renderPrompt,
} from "./render/prompt.ts";
export { replyText } from "./reply-text.ts";
