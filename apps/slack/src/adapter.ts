/**
 * The Slack channel: core's `Channel` port over Bolt's WebClient, mounted on a Bolt `App`, with one
 * lifecycle — `start(broker)` mounts the inbound side, `stop()` ends it. `createSlackChannel` mounts it
 * on a Bolt app you already have; `create` (loaded by the plugin's `create` only) builds the app from the
 * config and starts it too: Socket Mode connects in `start`; HTTP mode is `handleWebhook`, which the
 * host mounts (the gateway at `/channels/slack/…` on its one port) or serves on `listen`.
 */
import {
  type AskUserBroker,
  AskUserError,
  type AskUserLogger,
  type Channel,
  type ChannelAdapter,
  type ChannelPluginContext,
  type Coordination,
  consoleLogger,
  createMemoryCoordination,
} from "@ask-user/core/channel";
import type { App, webApi } from "@slack/bolt";
import type { SlackConfig } from "./config.ts";
import { parseConversation } from "./conversation.ts";
import { createEarlierPosts } from "./earlier-post.ts";
import { createInbound } from "./inbound.ts";
import { acknowledgeTheRest, createBoltApp } from "./ingress/bolt-app.ts";
import { firstTime } from "./ingress/dedupe.ts";
import {
  ACTIONS_ELEMENTS_MAX,
  BUTTON_TEXT_MAX_CHARS,
  EVENTS_PATH,
  LEGACY_EVENTS_PATH,
  NOT_READY_RETRY_AFTER_SEC,
} from "./limits.ts";
import { sendNotice } from "./notices.ts";
import { createOutbound } from "./outbound.ts";
import { slackTime } from "./render/mrkdwn.ts";
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

/** The Slack channel on a Bolt app: core's `Channel` port (give it to `createAskUser`) and its lifecycle. */
export interface SlackChannel extends ChannelAdapter, Channel {
  /**
   * Mounts the inbound side on the app as one global middleware (`app.use`): taps on our buttons, our
   * modal's submissions and messages that answer a question go to `broker`; everything else goes on to
   * the app's listeners. Call it once, before `app.start()`; the app itself is yours to start.
   */
  start(broker: AskUserBroker): Promise<void>;
  /** From now on every request goes on to the app's listeners (Bolt cannot remove a middleware). */
  stop(): Promise<void>;
}

/**
 * Creates the Slack channel on `app`. Outbound (deliver, finalize, notify) works at once; inbound starts
 * with `start(broker)`. Platform failures reach core as `ChannelError` (see `errors.ts`).
 *
 * @example
 * ```ts
 * const app = new App({ token, appToken, socketMode: true, clientOptions: { retryConfig: SLACK_RETRY_POLICY } });
 * const slack = createSlackChannel({ app });
 * const askUser = createAskUser({ store: createMemoryStore(), channels: [slack] });
 * await slack.start(askUser);
 * await app.start();
 * ```
 */
export function createSlackChannel(options: SlackChannelOptions): SlackChannel {
  const name = options.name ?? "slack";
  const client = options.client ?? options.app.client;
  const logger = options.logger ?? consoleLogger;
  const coordination = options.coordination ?? createMemoryCoordination();
  const people = createPeople(client);
  let broker: AskUserBroker | undefined;
  let stopped = false;
  const out = createOutbound({ name, client, logger, people, broker: () => broker });
  const earlier = createEarlierPosts(out);

  return {
    name,
    describe: name,
    capabilities: {
      buttons: true,
      edit: true,
      privateNotices: true,
      maxButtons: ACTIONS_ELEMENTS_MAX,
      maxButtonLabel: BUTTON_TEXT_MAX_CHARS,
      ingress: options.ingress ?? "connection",
    },
    isDirect: (conversation) => parseConversation(conversation)?.user === true,
    deliver: (request) => out.deliver(request, earlier),
    finalize: (request) => out.finalize(request),
    refresh: (request) => out.refresh(request),
    notify: (notice) => sendNotice(out, notice),
    // SPEC §5: Slack shows `<@U…>` as the person's name (private notices, the prompt's "For <@U…>").
    displayName: async (userId) => mention(userId),
    // Refusals say "expired at 14:05" in the reader's own time zone.
    formatTime: (epochMs, locale) => slackTime(epochMs, locale, Date.now()),
    async start(next) {
      if (stopped) throw new AskUserError("closed", "The Slack channel was stopped.");
      if (broker) throw new AskUserError("invalid_input", "The Slack channel is started already.");
      broker = next;
      const once = (key: string) => firstTime(coordination, key, logger, name);
      const inbound = createInbound({ name, broker: next, client, people, logger, once });
      options.app.use(async (args) => (stopped ? args.next() : inbound(args)));
    },
    async stop() {
      stopped = true;
    },
  };
}

/** The answer to a request that comes before `start` (or after `stop`): Slack redelivers events. */
function notReady(): Response {
  const body = { ok: false, error: "not_ready", message: "The Slack channel is not receiving yet." };
  return Response.json(body, { status: 503, headers: { "retry-after": String(NOT_READY_RETRY_AFTER_SEC) } });
}

/**
 * The plugin's adapter from `context.config`: checks the bot token (`auth.test`; a refusal throws
 * `ChannelError`), builds the Bolt app and the channel. `start(broker)` mounts the inbound side and
 * starts the app (Socket Mode resolves once connected); nothing is received before.
 */
export async function create(context: ChannelPluginContext<SlackConfig>): Promise<ChannelAdapter> {
  const { config, logger, coordination } = context;
  const { app, receiver, botName } = await createBoltApp(config, logger);
  const slack = createSlackChannel({
    app,
    logger,
    coordination,
    ingress: receiver ? "webhook" : "connection",
  });
  const describe = `slack (@${botName}, ${receiver ? `HTTP at ${EVENTS_PATH}` : "Socket Mode"})`;
  let receiving = false;
  let started: Promise<void> | undefined;
  let stopped: Promise<void> | undefined;

  const adapter: ChannelAdapter = {
    ...slack,
    describe,
    async start(broker) {
      if (stopped) throw new AskUserError("closed", "The Slack channel was stopped.");
      if (started) throw new AskUserError("invalid_input", "The Slack channel is started already.");
      started = slack.start(broker).then(async () => {
        app.use(acknowledgeTheRest());
        await app.start(); // Socket Mode connects; the HTTP receiver opens nothing
      });
      await started;
      if (stopped) return; // stopped while connecting: stop() closes what start opened
      receiving = true;
      logger.info?.({ channel: "slack", instance: context.instanceId }, `${describe} ready`);
    },
    stop() {
      stopped ??= (async () => {
        receiving = false;
        await slack.stop();
        if (!started) return;
        await started.catch(() => undefined);
        await app.stop();
      })();
      return stopped;
    },
  };
  if (!receiver) return adapter;
  return {
    ...adapter,
    handleWebhook: async (request) => (receiving ? receiver.handle(request) : notReady()),
    listen: { host: config.host, port: config.port, paths: [EVENTS_PATH, LEGACY_EVENTS_PATH] },
  };
}
