/** The Slack channel: core's `Channel` port over Bolt's WebClient, mounted on a Bolt `App`. */
import {
  type AskUserBroker,
  AskUserError,
  type AskUserLogger,
  type Channel,
  type Coordination,
  consoleLogger,
  createMemoryCoordination,
} from "@ask-user/core";
import type { App, webApi } from "@slack/bolt";
import { parseConversation } from "./conversation.ts";
import { firstTime } from "./dedupe.ts";
import { createEarlierPosts } from "./earlier-post.ts";
import { createInbound } from "./inbound.ts";
import { ACTIONS_ELEMENTS_MAX, BUTTON_TEXT_MAX_CHARS } from "./limits.ts";
import { sendNotice } from "./notices.ts";
import { createOutbound } from "./outbound.ts";
import { deliverPrompt, finalizePrompt, refreshPrompt } from "./prompts.ts";
import { slackTime } from "./render.ts";
import { createPeople, mention } from "./users.ts";

/** Options of {@link createSlackChannel}. */
export interface SlackChannelOptions {
  /** The host's Bolt app (HTTP or Socket Mode). Its own listeners keep working. */
  app: App;
  /** The channel name used in targets (`{ channel: "slack", conversation }`). Default `"slack"`. */
  name?: string;
  /** The WebClient with the bot token. Default `app.client` (a single-workspace app with `token`). */
  client?: webApi.WebClient;
  logger?: AskUserLogger;
  /**
   * Where "handled once" is recorded: pass the store when several processes share it (every store is a
   * `Coordination`), so that an event or interaction delivered twice — to any of them — is handled once.
   * Default: this process only.
   */
  coordination?: Coordination;
  /** How this app receives Slack's requests (`capabilities.ingress`). Default `"connection"` (Socket Mode). */
  ingress?: "connection" | "webhook";
}

/** A Slack channel, in two phases: the `channel` first, its inbound side once the broker exists. */
export interface SlackChannel {
  /** Give this to `createAskUser({ channels })`. */
  channel: Channel;
  /**
   * Mounts the inbound side on the app as one global middleware (`app.use`): taps on our buttons, our
   * modal's submissions and messages that answer a question go to `broker`; everything else goes on to
   * the app's listeners. Call it once, before `app.start()`.
   */
  attach(broker: AskUserBroker): void;
}

/**
 * Creates the Slack channel on `app`. Outbound (deliver, finalize, notify) works at once; inbound starts
 * with `attach(broker)`. Platform failures reach core as `ChannelError` (see `errors.ts`).
 *
 * @example
 * ```ts
 * const app = new App({ token: process.env.SLACK_BOT_TOKEN, appToken: process.env.SLACK_APP_TOKEN, socketMode: true });
 * const slack = createSlackChannel({ app });
 * const askUser = createAskUser({ store: createMemoryStore(), channels: [slack.channel] });
 * slack.attach(askUser);
 * await app.start();
 * const result = await askUser.ask(input, { target: { channel: "slack", conversation: "C0123ABCD" } });
 * ```
 */
export function createSlackChannel(options: SlackChannelOptions): SlackChannel {
  const name = options.name ?? "slack";
  const client = options.client ?? options.app.client;
  const logger = options.logger ?? consoleLogger;
  const people = createPeople(client);
  let attachedTo: AskUserBroker | undefined;
  const out = createOutbound({ name, client, logger, people, broker: () => attachedTo });
  const earlier = createEarlierPosts(out);

  const channel: Channel = {
    name,
    capabilities: {
      buttons: true,
      edit: true,
      privateNotices: true,
      maxButtons: ACTIONS_ELEMENTS_MAX,
      maxButtonLabel: BUTTON_TEXT_MAX_CHARS,
      ingress: options.ingress ?? "connection",
    },
    isDirect: (conversation) => parseConversation(conversation)?.user === true,
    deliver: (request) => deliverPrompt(out, request, earlier),
    finalize: (request) => finalizePrompt(out, request),
    refresh: (request) => refreshPrompt(out, request),
    notify: (notice) => sendNotice(out, notice),
    // SPEC §5: Slack shows `<@U…>` as the person's name; it is only used in private notices (refusals)
    // and in the prompt's "For <@U…>".
    displayName: async (userId) => mention(userId),
    // Refusals say "expired at 14:05" in the reader's own time zone.
    formatTime: (epochMs, locale) => slackTime(epochMs, locale, Date.now()),
  };

  const coordination = options.coordination ?? createMemoryCoordination();
  let attached = false;
  const attach = (broker: AskUserBroker) => {
    if (attached)
      throw new AskUserError("invalid_input", "createSlackChannel: attach(broker) was called twice.");
    attached = true;
    attachedTo = broker;
    const once = (key: string) => firstTime(coordination, key, logger, name);
    options.app.use(createInbound({ name, broker, client, people, logger, once }));
  };
  return { channel, attach };
}
