import {
  AskUserError,
  type ChannelEnv,
  type ChannelInstance,
  type ChannelPlugin,
  InvalidChannelConfigError,
  isChannelPlugin,
  type QuestionStore,
} from "@ask-user/core";
import type { Logger } from "pino";
import type { SupervisedChannel } from "./channel-supervisor.ts";

/**
 * The channels the gateway can run, as module names: each exports a core `ChannelPlugin` named
 * `channelPlugin` from a light module (the platform SDK is loaded by `create`, only for a channel whose
 * variables are set). A new channel package is one more name here; nothing else in the gateway knows it.
 */
export const CHANNEL_MODULES: readonly string[] = [
  "@ask-user/telegram/plugin",
  "@ask-user/discord/plugin",
  "@ask-user/slack/plugin",
  "@ask-user/core/text-webhook",
];

/**
 * Imports each module and returns its `channelPlugin`, in order. A module that can't be loaded or has no
 * plugin is an `AskUserError` with code `unknown_channel` naming it.
 *
 * @example
 * const plugins = await loadChannelPlugins(); // telegram, discord, slack, text
 */
export async function loadChannelPlugins(
  modules: readonly string[] = CHANNEL_MODULES,
): Promise<ChannelPlugin[]> {
  return Promise.all(
    modules.map(async (name) => {
      let loaded: { channelPlugin?: unknown };
      try {
        loaded = (await import(name)) as { channelPlugin?: unknown };
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new AskUserError(
          "unknown_channel",
          `The channel module ${name} could not be loaded: ${reason}`,
          {
            cause: error,
          },
        );
      }
      if (!isChannelPlugin(loaded.channelPlugin)) {
        throw new AskUserError("unknown_channel", `The channel module ${name} exports no channelPlugin.`);
      }
      return loaded.channelPlugin;
    }),
  );
}

/** A plugin the environment turns on, with the configuration its `readConfig` returned. */
export interface EnabledChannel {
  plugin: ChannelPlugin;
  config: unknown;
}

/**
 * Reads the configuration of every plugin whose variables are set. Every problem of every channel is
 * collected (one line each, as the plugins wrote them) instead of stopping at the first.
 */
export function readChannelConfigs(
  plugins: readonly ChannelPlugin[],
  env: ChannelEnv,
): { channels: EnabledChannel[]; problems: string[] } {
  const channels: EnabledChannel[] = [];
  const problems: string[] = [];
  for (const plugin of plugins) {
    if (!plugin.enabled(env)) continue;
    try {
      channels.push({ plugin, config: plugin.readConfig(env) });
    } catch (error) {
      if (!(error instanceof InvalidChannelConfigError)) throw error;
      problems.push(...error.problems);
    }
  }
  return { channels, problems };
}

/** Stops every channel; a failing stop is passed to `onError` and never stops the others. */
export async function stopChannels<T extends { stop(): Promise<void> }>(
  instances: readonly T[],
  onError: (error: unknown, instance: T) => void = () => undefined,
): Promise<void> {
  await Promise.all(
    instances.map((instance) => instance.stop().catch((error: unknown) => onError(error, instance))),
  );
}

/** The variables that turn a plugin on (its required ones), for the banner: `TELEGRAM_BOT_TOKEN`. */
export function turnedOnBy(plugin: ChannelPlugin): string {
  const required = plugin.variables.filter((variable) => variable.required).map((variable) => variable.name);
  return required.length > 0 ? required.join(" + ") : plugin.variables.map((v) => v.name).join(" / ");
}

/** For each channel that is off: how to turn it on (`set ASK_USER_TEXT_WEBHOOK_URL`). */
export function turnOnHints(
  plugins: readonly ChannelPlugin[],
  running: ReadonlySet<string>,
): Map<string, string> {
  const hints = new Map<string, string>();
  for (const plugin of plugins)
    if (!running.has(plugin.name)) hints.set(plugin.name, `set ${turnedOnBy(plugin)}`);
  return hints;
}

/**
 * A channel's `listen` (its own host and port) is for the standalone runner: in the gateway its webhook
 * is served on the gateway's port, at `/channels/<name>`. Say so, so nobody points the platform there.
 */
export function warnAboutListen(instance: ChannelInstance, logger: Logger): void {
  const { name, listen } = instance;
  if (!listen) return;
  logger.warn(
    { channel: name, host: listen.host, port: listen.port },
    `${name}: ${listen.host}:${listen.port} is for the standalone runner only; the gateway serves /channels/${name} on its own port`,
  );
}

/** Resolves once no channel is connecting any more (each connected, retrying or stopped), or after `ms`. */
export async function settledAll(channels: readonly SupervisedChannel[], ms: number): Promise<void> {
  await Promise.all(channels.map((supervised) => supervised.settled(ms)));
}

/**
 * The store as the broker sees it: its repair sweep (the listing of questions that need repair) first
 * waits for `settled` — the channels' attempts in progress — so that a prompt stored but not delivered
 * before a crash is delivered by the connected channel, with its buttons, rather than by a channel that
 * does not exist yet. Everything else goes to the store as it is.
 */
export function repairAfterChannels(store: QuestionStore, settled: () => Promise<void>): QuestionStore {
  const list: QuestionStore["list"] = async (filter, page) => {
    if (filter?.needsRepair) await settled();
    return store.list(filter, page);
  };
  return new Proxy(store, {
    get(target, key) {
      if (key === "list") return list;
      const value: unknown = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
