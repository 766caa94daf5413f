/** The environment → the Discord channel's configuration, every problem at once. Pure, no SDK. */
import {
  type ChannelEnv,
  type ChannelVariable,
  InvalidChannelConfigError,
  readVariable,
} from "@ask-user/core/channel";

export const DISCORD_VARIABLES: readonly ChannelVariable[] = [
  {
    name: "DISCORD_BOT_TOKEN",
    description: "Bot token (Developer Portal → your app → Bot → Reset Token)",
    required: true,
    secret: true,
  },
  {
    name: "DISCORD_API_URL",
    description: "REST base without the version (default https://discord.com/api; tests, proxies)",
  },
];

export interface DiscordConfig {
  /** Never printed. */
  token: string;
  /** REST base without the version, e.g. `http://127.0.0.1:PORT/api`. */
  apiUrl?: string;
}

/** Trailing slashes dropped from the URL; one `InvalidChannelConfigError` lists every problem, never the token. */
export function readDiscordConfig(env: ChannelEnv): DiscordConfig {
  const problems: string[] = [];
  const token = readVariable(env, "DISCORD_BOT_TOKEN");
  if (token === undefined)
    problems.push("DISCORD_BOT_TOKEN is not set: create a bot in the Discord Developer Portal.");
  const apiUrl = readVariable(env, "DISCORD_API_URL")?.replace(/\/+$/, "");
  if (apiUrl !== undefined && !/^https?:\/\//.test(apiUrl))
    problems.push(`DISCORD_API_URL must be an http(s) URL, got "${apiUrl}".`);
  if (token === undefined || problems.length > 0) throw new InvalidChannelConfigError("discord", problems);
  return apiUrl === undefined ? { token } : { token, apiUrl };
}
