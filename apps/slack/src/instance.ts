/**
 * The plugin's SDK-bound half, loaded by `channelPlugin.create` only: a Bolt app from the config, the
 * channel on it, and the `ChannelInstance` a host runs — Socket Mode connects in `initialize`; HTTP mode
 * is `handleWebhook`, which the host mounts (the gateway at `/channels/slack/…` on its one port) or serves
 * on `listen` (the standalone runner).
 */
import {
  type AskUserBroker,
  AskUserError,
  type ChannelInstance,
  type ChannelPluginContext,
} from "@ask-user/core";
import { acknowledgeTheRest, createBoltApp } from "./app.ts";
import { createSlackChannel } from "./channel.ts";
import type { SlackConfig } from "./config.ts";
import { EVENTS_PATH, LEGACY_EVENTS_PATH, NOT_READY_RETRY_AFTER_SEC } from "./limits.ts";

/** The answer to a request that comes before `initialize` (or after `stop`): Slack redelivers events. */
function notReady(): Response {
  const body = { ok: false, error: "not_ready", message: "The Slack channel is not receiving yet." };
  return Response.json(body, { status: 503, headers: { "retry-after": String(NOT_READY_RETRY_AFTER_SEC) } });
}

/**
 * Builds the Slack channel from `context.config`: checks the bot token (`auth.test`; a refusal throws
 * `ChannelError`), creates the Bolt app and the `Channel`. Nothing is received until `initialize(broker)`.
 *
 * @example
 * const instance = await create({ config: readSlackConfig(process.env), logger, coordination: store, instanceId: "a" });
 * const askUser = createAskUser({ store, channels: [instance.channel] });
 * await instance.initialize(askUser);
 */
export async function create(context: ChannelPluginContext<SlackConfig>): Promise<ChannelInstance> {
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

  const initialize = async (broker: AskUserBroker) => {
    if (stopped) throw new AskUserError("closed", "The Slack channel was stopped.");
    if (started) throw new AskUserError("invalid_input", "The Slack channel is initialized already.");
    slack.attach(broker);
    app.use(acknowledgeTheRest());
    started = app.start().then(() => undefined); // Socket Mode connects; the HTTP receiver opens nothing
    await started;
    if (stopped) return; // stopped while connecting: stop() closes what start opened
    receiving = true;
    logger.info?.({ channel: "slack", instance: context.instanceId }, `${describe} ready`);
  };

  const stop = () => {
    stopped ??= (async () => {
      receiving = false;
      if (!started) return;
      await started.catch(() => undefined);
      await app.stop();
    })();
    return stopped;
  };

  const instance: ChannelInstance = { channel: slack.channel, describe, initialize, stop };
  if (!receiver) return instance;
  return {
    ...instance,
    handleWebhook: async (request) => (receiving ? receiver.handle(request) : notReady()),
    listen: { host: config.host, port: config.port, paths: [EVENTS_PATH, LEGACY_EVENTS_PATH] },
  };
}
