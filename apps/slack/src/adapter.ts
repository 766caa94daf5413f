/**
 * The Slack channel on a Bolt `App`, one lifecycle: `createSlackChannel` on an app you start yourself;
 * `create` (the plugin's) builds the app from the config and starts and stops it too (HTTP mode: `handleWebhook`).
 */
import {
  type AskUserBroker,
  AskUserError,
  type Channel,
  type ChannelAdapter,
  type ChannelLogger,
  type ChannelPluginContext,
  type Coordination,
  consoleLogger,
  createMemoryCoordination,
  createOnce,
  notReadyResponse,
} from "@ask-user/core/channel";
import type { App, webApi } from "@slack/bolt";
import type { SlackConfig } from "./config.ts";
import { parseConversation } from "./conversation.ts";
import { createInbound } from "./inbound.ts";
import { acknowledgeTheRest, createBoltApp } from "./ingress/bolt-app.ts";
import type { WebhookReceiver } from "./ingress/receiver.ts";
import {
  ACTIONS_ELEMENTS_MAX,
  BUTTON_TEXT_MAX_CHARS,
  DEDUPE_TTL_MS,
  EVENTS_PATH,
  LEGACY_EVENTS_PATH,
} from "./limits.ts";
import { sendNotice } from "./notices.ts";
import { createOutbound } from "./outbound.ts";
import { slackTime } from "./render/mrkdwn.ts";
import { createPeople, mention } from "./users.ts";

/** Options of {@link createSlackChannel} (the README's "Mount it on your Bolt app"). */
export interface SlackChannelOptions {
  /** Your Bolt app (HTTP or Socket Mode). Its own listeners keep working. */
  app: App;
  /** The channel name used in targets. Default `"slack"`. */
  name?: string;
  /** The WebClient with the bot token. Default `app.client`. */
  client?: webApi.WebClient;
  logger?: ChannelLogger;
  /** Where "handled once" is recorded: the store several processes share. Default: this process only. */
  coordination?: Coordination;
  /** `capabilities.ingress`. Default `"connection"` (Socket Mode). */
  ingress?: "connection" | "webhook";
}

/**
 * Core's `Channel` port and its lifecycle: `start(broker)` mounts one global middleware (`app.use`), once,
 * before `app.start()`; `stop()` hands every later request on to the app's listeners (Bolt cannot remove
 * a middleware).
 */
export type SlackChannel = ChannelAdapter & Channel;

/** The plugin's own app, which the channel starts (after its last middleware) and stops; HTTP mode's receiver. */
type OwnApp = { describe: string; instanceId: string; receiver: WebhookReceiver | undefined };

function mount(options: SlackChannelOptions, own?: OwnApp): SlackChannel {
  const { app } = options;
  const name = options.name ?? "slack";
  const client = options.client ?? app.client;
  const logger: ChannelLogger = options.logger ?? consoleLogger;
  let broker: AskUserBroker | undefined;
  let receiving = false;
  let stopped = false;
  let starting: Promise<void> | undefined;
  let stopping: Promise<void> | undefined;
  const out = createOutbound({ name, client, logger, people: createPeople(client), broker: () => broker });

  const channel: SlackChannel = {
    name,
    describe: own?.describe ?? name,
    capabilities: {
      buttons: true,
      edit: true,
      privateNotices: true,
      maxButtons: ACTIONS_ELEMENTS_MAX,
      maxButtonLabel: BUTTON_TEXT_MAX_CHARS,
      ingress: options.ingress ?? "connection",
    },
    isDirect: (conversation) => parseConversation(conversation)?.user === true,
    deliver: out.deliver,
    finalize: out.finalize,
    refresh: out.refresh,
    notify: (notice) => sendNotice(out, notice),
    // SPEC §5: Slack shows `<@U…>` as the person's name (private notices, the prompt's "For <@U…>").
    displayName: async (userId) => mention(userId),
    // Refusals say "expired at 14:05" in the reader's own time zone.
    formatTime: (epochMs, locale) => slackTime(epochMs, locale, Date.now()),
    async start(next) {
      if (stopped) throw new AskUserError("closed", "The Slack channel was stopped.");
      if (broker) throw new AskUserError("invalid_input", "The Slack channel is started already.");
      broker = next;
      const coordination = options.coordination ?? createMemoryCoordination();
      const once = createOnce({ coordination, ttlMs: DEDUPE_TTL_MS, logger, channel: name });
      const inbound = createInbound({ ...out, broker: next, once });
      app.use(async (args) => (stopped ? args.next() : inbound(args)));
      if (!own) return;
      app.use(acknowledgeTheRest());
      starting = app.start().then(() => undefined); // Socket Mode connects; the HTTP receiver opens nothing
      await starting;
      if (stopped) return; // stopped while connecting: stop() closes what start opened
      receiving = true;
      logger.info?.({ channel: "slack", instance: own.instanceId }, `${own.describe} ready`);
    },
    stop() {
      stopped = true;
      stopping ??= (async () => {
        if (!starting) return;
        await starting.catch(() => undefined);
        await app.stop();
      })();
      return stopping;
    },
  };
  const receiver = own?.receiver;
  // Before start and after stop: 503 with Retry-After, so that Slack redelivers an event.
  if (receiver) {
    channel.handleWebhook = async (request) =>
      receiving && !stopped
        ? receiver.handle(request)
        : notReadyResponse("The Slack channel is not receiving yet.", 1);
  }
  return channel;
}

/** Creates the Slack channel on your `app`: outbound works at once, inbound from `start(broker)`. */
export function createSlackChannel(options: SlackChannelOptions): SlackChannel {
  return mount(options);
}

/** The plugin's adapter: the bot token checked (`auth.test`), the Bolt app built, nothing received before `start`. */
export async function create(context: ChannelPluginContext<SlackConfig>): Promise<ChannelAdapter> {
  const { config, logger, coordination, instanceId } = context;
  const { app, receiver, botName } = await createBoltApp(config, logger);
  const describe = `slack (@${botName}, ${receiver ? `HTTP at ${EVENTS_PATH}` : "Socket Mode"})`;
  const ingress = receiver ? "webhook" : "connection";
  const slack = mount({ app, logger, coordination, ingress }, { describe, instanceId, receiver });
  const listen = { host: config.host, port: config.port, paths: [EVENTS_PATH, LEGACY_EVENTS_PATH] };
  return receiver ? { ...slack, listen } : slack;
}
