/**
 * @ask-user/discord — ask_user on Discord with discord.js: mount the channel on your own client
 * (`createDiscordChannel`, then `attach(broker)`), or let a host run it from the environment
 * (`channelPlugin`, also at `@ask-user/discord/plugin`; the standalone runner is `@ask-user/runner`).
 *
 * @example
 * const discord = createDiscordChannel({ client });
 * const askUser = createAskUser({ store, channels: [discord.channel] });
 * discord.attach(askUser);
 */
export { createDiscordChannel, type DiscordChannel, type DiscordChannelOptions } from "./channel.ts";
export { DISCORD_VARIABLES, type DiscordConfig, readDiscordConfig } from "./config.ts";
export { type DiscordConversation, formatConversation, parseConversation } from "./conversation.ts";
export { isSettledEditError, toChannelError } from "./errors.ts";
export { formFits, renderFormComponents, renderFormPrompt } from "./form.ts";
export * as discordLimits from "./limits.ts";
export { deadlineText, discordTime, escapeMarkdown, shorten } from "./markdown.ts";
export { ANSWER_INPUT_ID, renderOtherModal } from "./modal.ts";
export { mentionOf, nameOf, renderNotice, renderSummaryNotice } from "./notice.ts";
export { channelPlugin } from "./plugin.ts";
export {
  type ButtonRows,
  missingIntentHint,
  type PromptContext,
  type RenderedMessage,
  renderButtonPrompt,
  renderButtons,
  renderTextPrompt,
} from "./render.ts";
export { replyText } from "./reply-text.ts";
