/**
 * The Slack channel's settings from the environment: the variables it reads (`SLACK_VARIABLES`) and
 * `readSlackConfig`, which checks them all at once. Light: no SDK here.
 */
import {
  type ChannelEnv,
  type ChannelVariable,
  InvalidChannelConfigError,
  readVariable,
} from "@ask-user/core/channel";
import { EVENTS_PATH } from "./limits.ts";

/** The Slack settings: Socket Mode with `appToken`, else HTTP mode; `port`/`host` are `listen`'s. */
export interface SlackConfig {
  botToken: string;
  appToken?: string;
  signingSecret?: string;
  /** The Web API base, ending in `/`. Default Slack's. */
  apiUrl?: string;
  port: number;
  host: string;
}

export const NO_MODE_PROBLEM = `Set SLACK_APP_TOKEN (xapp-…, Socket Mode: no public URL needed) or SLACK_SIGNING_SECRET (HTTP mode: Request URL …${EVENTS_PATH}).`;

export const SLACK_VARIABLES: readonly ChannelVariable[] = [
  { name: "SLACK_BOT_TOKEN", description: "Bot User OAuth Token (xoxb-…)", required: true, secret: true },
  {
    name: "SLACK_APP_TOKEN",
    description:
      "App-level token (xapp-…, connections:write): Socket Mode, no public URL; wins when both are set",
    secret: true,
  },
  {
    name: "SLACK_SIGNING_SECRET",
    description: `Signing Secret: HTTP mode without an app token, Request URL <public URL>${EVENTS_PATH}`,
    secret: true,
  },
  { name: "SLACK_PORT", description: "HTTP mode, standalone only: the port to listen on (default 3000)" },
  { name: "SLACK_HOST", description: "HTTP mode, standalone only: the bind address (default 127.0.0.1)" },
  { name: "SLACK_API_URL", description: "Web API base URL (default Slack's, https://slack.com/api/)" },
];

/** Reads the `SLACK_*` variables; one `InvalidChannelConfigError` lists every problem. */
export function readSlackConfig(env: ChannelEnv): SlackConfig {
  const problems: string[] = [];
  const botToken = readVariable(env, "SLACK_BOT_TOKEN");
  if (!botToken) problems.push("SLACK_BOT_TOKEN is required (the xoxb-… bot token).");
  const appToken = readVariable(env, "SLACK_APP_TOKEN");
  const signingSecret = readVariable(env, "SLACK_SIGNING_SECRET");
  if (!appToken && !signingSecret) problems.push(NO_MODE_PROBLEM);
  const port = Number(readVariable(env, "SLACK_PORT") ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    problems.push("SLACK_PORT must be a port number.");
  const apiUrl = readVariable(env, "SLACK_API_URL");
  if (apiUrl !== undefined && !URL.canParse(apiUrl)) problems.push("SLACK_API_URL must be a URL.");
  if (problems.length > 0 || !botToken) throw new InvalidChannelConfigError("slack", problems);
  const config: SlackConfig = { botToken, port, host: readVariable(env, "SLACK_HOST") ?? "127.0.0.1" };
  if (appToken) config.appToken = appToken;
  else if (signingSecret) config.signingSecret = signingSecret;
  if (apiUrl) config.apiUrl = apiUrl.endsWith("/") ? apiUrl : `${apiUrl}/`;
  return config;
}
