/**
 * @ask-user/runner — a channel plugin alone: one question through one platform, the result JSON on
 * stdout, the outcome as the exit code. The `ask-user-channel` command runs the Telegram, Discord and
 * Slack plugins; `runStandalone` runs any `ChannelPlugin`.
 *
 * @example
 * import { channelPlugin } from "@ask-user/telegram/plugin";
 * process.exitCode = await runStandalone({ plugin: channelPlugin, argv: process.argv.slice(2), env: process.env });
 */
export { main, STANDALONE_CHANNELS } from "./cli.ts";
export { processIo, runStandalone, type StandaloneIo, type StandaloneOptions } from "./runner.ts";
export { serveWebhook, type WebhookServer } from "./serve.ts";
export { EXIT, usageText } from "./usage.ts";
