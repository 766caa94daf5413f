/**
 * `@ask-user/core/text-webhook`: the generic text channel over HTTP, as a channel plugin. Prompts,
 * notices and summaries are POSTed as JSON `{ conversation, text, replyTo? }` to one URL (your chat
 * bridge, SMS gateway, …); its answer may carry `{ messageId }`. Replies come back through the host:
 * the gateway takes them at `POST /v1/channels/text/inbound` and hands them to `broker.handleReply`.
 */

import { ChannelError } from "../model/errors.ts";
import { randomBase64Url } from "../model/random.ts";
import type { Channel } from "../ports/channel.ts";
import {
  type ChannelPlugin,
  defineChannel,
  InvalidChannelConfigError,
  readVariable,
} from "../ports/plugin.ts";
import { createTextChannel } from "./text.ts";

/** The text webhook's configuration, read from `ASK_USER_TEXT_WEBHOOK_URL`. */
export interface TextWebhookConfig {
  /** Where messages are POSTed. */
  url: string;
}

const NAME = "text";
const VARIABLE = "ASK_USER_TEXT_WEBHOOK_URL";
/** How long one POST may take before it counts as unreachable. */
const SEND_TIMEOUT_MS = 10_000;

/** Reads `ASK_USER_TEXT_WEBHOOK_URL`; throws `InvalidChannelConfigError` unless it is an http(s) URL. */
function readTextWebhookConfig(env: Readonly<Record<string, string | undefined>>): TextWebhookConfig {
  const url = readVariable(env, VARIABLE);
  if (url === undefined) throw new InvalidChannelConfigError(NAME, [`${VARIABLE} is required.`]);
  if (!/^https?:\/\/[^\s]+$/.test(url) || !URL.canParse(url)) {
    throw new InvalidChannelConfigError(NAME, [`${VARIABLE} must be an http(s) URL, not "${url}".`]);
  }
  return { url };
}

/** `Retry-After` in seconds, as milliseconds (undefined when absent or not a number of seconds). */
function retryAfterMs(header: string | null): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

/**
 * One POST to the webhook; resolves with the message id. Failures are `ChannelError`s: a non-2xx answer
 * is "refused" (429 is "rate_limited" with `Retry-After`), a timeout or a dropped connection "unreachable".
 */
async function post(url: string, body: Record<string, string>): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
  } catch (error) {
    const reason = error instanceof Error && error.name === "TimeoutError" ? "timed out" : "failed";
    throw new ChannelError(
      NAME,
      "unreachable",
      `The text webhook could not be reached: the POST ${reason}.`,
      {
        method: "POST",
        cause: error,
      },
    );
  }
  if (!response.ok) {
    await response.body?.cancel();
    const status = `${response.status} ${response.statusText}`.trim();
    if (response.status === 429) {
      const wait = retryAfterMs(response.headers.get("retry-after"));
      throw new ChannelError(NAME, "rate_limited", `The text webhook asked to slow down: ${status}.`, {
        method: "POST",
        status: response.status,
        ...(wait === undefined ? {} : { retryAfterMs: wait }),
      });
    }
    throw new ChannelError(NAME, "refused", `The text webhook refused the message: ${status}.`, {
      method: "POST",
      status: response.status,
    });
  }
  const answer = (await response.json().catch(() => undefined)) as { messageId?: unknown } | undefined;
  const id = answer?.messageId;
  return typeof id === "string" || typeof id === "number" ? String(id) : `text-${randomBase64Url(12)}`;
}

/** The text channel on `url`: core's text rendering, replies arriving over the host's webhook. */
function createTextWebhookChannel(url: string): Channel {
  const channel = createTextChannel({
    name: NAME,
    send: (conversation, text, options) => post(url, { conversation, text, ...options }),
  });
  return { ...channel, capabilities: { ...channel.capabilities, ingress: "webhook" } };
}

/**
 * The text webhook channel plugin (name `text`, on when `ASK_USER_TEXT_WEBHOOK_URL` is set). Targets are
 * `text:<conversation>`, any non-blank string; every conversation counts as one-to-one (an SMS thread).
 * It has no `handleWebhook`: the host decides how replies come in and authenticates them (the gateway's
 * `POST /v1/channels/text/inbound`, behind its token).
 *
 * @example
 * import { channelPlugin } from "@ask-user/core/text-webhook";
 * const config = channelPlugin.readConfig({ ASK_USER_TEXT_WEBHOOK_URL: "https://bridge.example/out" });
 * const text = await channelPlugin.create({ config, logger: console, coordination, instanceId: "1" });
 * const askUser = createAskUser({ store, channels: [text] });
 * await text.start(askUser);
 * // on an incoming message: await askUser.handleReply({ channel: "text", conversation, userId, text });
 */
export const channelPlugin: ChannelPlugin<TextWebhookConfig> = defineChannel({
  name: NAME,
  title: "Text webhook",
  variables: [
    {
      name: VARIABLE,
      description:
        "Where prompts are POSTed as JSON { conversation, text, replyTo? }; replies come in at POST /v1/channels/text/inbound",
      required: true,
    },
  ],
  readConfig: readTextWebhookConfig,
  parseConversation: (conversation) => (conversation.trim() === "" ? undefined : conversation),
  async create({ config, logger }) {
    return {
      ...createTextWebhookChannel(config.url),
      describe: `text (webhook ${new URL(config.url).origin})`,
      // Nothing to start: replies reach the broker through the host.
      async start() {
        logger.info?.({ channel: NAME }, "text channel ready");
      },
      stop: async () => undefined,
    };
  },
});
