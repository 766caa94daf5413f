/**
 * Each chat channel connects in the background, so that the gateway serves at once whatever the
 * platforms do. A supervised channel creates and initializes its plugin's instance; when that fails (the
 * platform is unreachable, refuses the token, …) it logs one line with the reason and tries again after a
 * pause that doubles from 1 s to 60 s, until it connects or is stopped. Once connected it stays so: the
 * SDKs reconnect by themselves (grammY's polling loop, discord.js, Socket Mode).
 *
 * The broker gets the supervised channel's `channel` at once: it forwards to the instance as soon as one
 * exists, and a prompt for a channel that is not connected ends `undeliverable` at once with the reason
 * (SPEC §4) — after waiting up to {@link DELIVER_WAIT_MS} when an attempt is in progress (a gateway that
 * just started, repairing a stored question). Its `ready` waits the same way, so that the broker reads
 * the instance's capabilities (buttons), not the placeholder's, for a prompt asked meanwhile.
 */
import {
  type AskUserBroker,
  type Channel,
  ChannelError,
  type ChannelInstance,
  type ChannelPlugin,
  type ChannelPluginContext,
  describeError,
  pause,
} from "@ask-user/core";
import { type DeliverRequest, type DeliveryRef, notReadyResponse } from "@ask-user/core/channel";
import type { Logger } from "pino";

/** The first pause after a failed attempt; each further failure doubles it, up to {@link RETRY_MAX_MS}. */
export const RETRY_FIRST_MS = 1_000;
export const RETRY_MAX_MS = 60_000;
/** An attempt without an outcome after this long is logged as slow (it goes on: the SDK bounds it). */
export const ATTEMPT_SLOW_MS = 30_000;
/** How long a prompt waits for an attempt in progress before it is refused as not connected. */
export const DELIVER_WAIT_MS = 5_000;
/** How long `stop()` waits for an attempt in progress; what it creates later is stopped when it comes. */
export const STOP_WAIT_MS = 2_000;
/** `Retry-After` of a webhook request that comes before the channel exists: the platform sends it again. */
const WEBHOOK_RETRY_AFTER_SECONDS = 5;

/** Where a channel is: connecting (an attempt runs), connected, retrying (waiting for the next attempt). */
export type ChannelState = "connecting" | "connected" | "retrying" | "stopped";

/** A channel's state as `/healthz` and the banner show it. */
export interface ChannelStatus {
  state: ChannelState;
  /** Why the last attempt failed (while retrying, and while connecting again after a failure). */
  error?: string;
  /** While retrying: seconds until the next attempt. */
  retryInSeconds?: number;
}

/** A channel the gateway runs: a plugin's instance whose platform connection is kept in the background. */
export interface SupervisedChannel {
  readonly plugin: ChannelPlugin;
  /**
   * The channel the broker delivers through, from the start: the instance once connected; before, one
   * that waits for an attempt in progress and otherwise says the channel is not connected.
   */
  readonly channel: Channel;
  /** The plugin's instance once created (starting or connected); undefined before and after. */
  readonly instance: ChannelInstance | undefined;
  /** The instance's banner line, or the channel's name before there is one. */
  readonly describe: string;
  status(): ChannelStatus;
  /** The instance's webhook; 503 with `Retry-After` while there is no instance yet. */
  handleWebhook(request: Request): Promise<Response>;
  /** Starts connecting in the background; resolves at once. */
  start(broker: AskUserBroker): Promise<void>;
  /** Stops connecting, or stops the instance. Safe to call twice. */
  stop(): Promise<void>;
  /** Resolves once the channel is no longer connecting (connected, retrying or stopped), or after `ms`. */
  settled(ms: number): Promise<void>;
}

/** Options of {@link superviseChannel}. */
export interface SuperviseOptions {
  plugin: ChannelPlugin;
  /** What the plugin's `readConfig` returned. */
  config: unknown;
  context: Omit<ChannelPluginContext<unknown>, "config">;
  logger: Logger;
  /** Told about each created instance (before its `start`): its webhook, its `listen`. */
  onCreated?(instance: ChannelInstance): void;
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Supervises one enabled channel; nothing happens until `start(broker)`.
 *
 * @example
 * const telegram = superviseChannel({ plugin, config, context, logger });
 * const broker = createAskUser({ store, channels: [telegram.channel] });
 * await telegram.start(broker); // at once; connects in the background
 * await telegram.settled(10_000);
 * telegram.status(); // { state: "retrying", error: "Could not reach Telegram for getMe: …", retryInSeconds: 1 }
 */
export function superviseChannel(options: SuperviseOptions): SupervisedChannel {
  const { plugin, logger } = options;
  const name = plugin.name;
  let state: ChannelState = "connecting";
  let lastError: string | undefined;
  let retryAt: number | undefined;
  let current: ChannelInstance | undefined;
  let attempt: Promise<ChannelInstance> | undefined;
  let started = false;
  let stopping: Promise<void> | undefined;
  /** Aborted by `stop`: ends the pause before the next attempt at once. */
  const waking = new AbortController();
  let slow: NodeJS.Timeout | undefined;
  const watchers = new Set<() => void>();
  const enter = (next: ChannelState) => {
    state = next;
    for (const watcher of [...watchers]) watcher();
  };

  const status = (): ChannelStatus => {
    const shown: ChannelStatus = { state };
    if (lastError !== undefined && state !== "connected") shown.error = lastError;
    if (state === "retrying" && retryAt !== undefined)
      shown.retryInSeconds = Math.max(0, Math.ceil((retryAt - Date.now()) / 1000));
    return shown;
  };

  const settled = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        if (state === "connecting" && !timedOut) return;
        watchers.delete(done);
        clearTimeout(timer);
        resolve();
      };
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        done();
      }, ms);
      watchers.add(done);
      done();
    });

  const notConnected = (): ChannelError => {
    if (state === "stopped")
      return new ChannelError(name, "unreachable", `${name} is stopped.`, { method: "connect" });
    const { error, retryInSeconds } = status();
    const why = error === undefined ? ` (still connecting after ${DELIVER_WAIT_MS / 1000} s)` : `: ${error}`;
    const next = retryInSeconds === undefined ? "" : `; next attempt in ${retryInSeconds} s`;
    return new ChannelError(name, "unreachable", `${name} is not connected yet${why}${next}.`, {
      method: "connect",
    });
  };

  /**
   * The broker awaits it before it reads `capabilities` for a delivery: an attempt in progress (up to
   * {@link DELIVER_WAIT_MS}) gives the instance's own capabilities (buttons) instead of the placeholder's.
   */
  const ready = async (): Promise<void> => {
    if (state === "connecting") await settled(DELIVER_WAIT_MS);
  };

  const deliver = async (request: DeliverRequest): Promise<DeliveryRef> => {
    await ready();
    if (state !== "connected" || !current) throw notConnected();
    return current.deliver(request);
  };

  // Before an instance exists: a channel that can't do anything yet; after: the instance's, as it is.
  const placeholder: Channel = {
    name,
    capabilities: { buttons: false, edit: false, privateNotices: false },
    ready,
    deliver,
    finalize: () => Promise.reject(notConnected()),
    notify: () => Promise.reject(notConnected()),
  };
  const channel = new Proxy(placeholder, {
    get(target, key) {
      if (key === "deliver") return deliver;
      if (key === "ready") return ready; // the supervisor's, whatever the instance has
      if (key === "name") return name; // the broker knows it by the plugin's name from the start
      const real = current;
      if (!real) return Reflect.get(target, key);
      const value: unknown = Reflect.get(real, key);
      return typeof value === "function" ? value.bind(real) : value;
    },
    set: (target, key, value) => Reflect.set(current ?? target, key, value),
    has: (target, key) => key in (current ?? target),
  });

  /** One attempt: create the instance, then start it; a failed one is stopped. */
  const connectOnce = async (broker: AskUserBroker): Promise<ChannelInstance> => {
    const created = await plugin.create({ ...options.context, config: options.config });
    if (stopping) {
      await created.stop();
      throw new Error(`${name} was stopped while connecting`);
    }
    current = created;
    options.onCreated?.(created);
    try {
      await created.start(broker);
    } catch (error) {
      current = undefined;
      await created.stop().catch((err: unknown) => {
        logger.warn({ channel: name, err: describeError(err) }, `${name}: stopping a failed attempt failed`);
      });
      throw error;
    }
    return created;
  };

  const run = async (broker: AskUserBroker): Promise<void> => {
    let delayMs = RETRY_FIRST_MS;
    for (let tries = 1; !stopping; tries++) {
      retryAt = undefined;
      enter("connecting");
      slow = setTimeout(() => {
        lastError = `no answer from ${plugin.title} after ${ATTEMPT_SLOW_MS / 1000} s (still trying)`;
        logger.warn({ channel: name }, `${name}: ${lastError}`);
      }, ATTEMPT_SLOW_MS);
      slow.unref();
      attempt = connectOnce(broker);
      try {
        const instance = await attempt;
        if (stopping) return;
        lastError = undefined;
        enter("connected");
        logger.info({ channel: name, attempts: tries }, `${name}: connected (${instance.describe})`);
        return;
      } catch (error) {
        if (stopping) return;
        lastError = reasonOf(error);
        retryAt = Date.now() + delayMs;
        enter("retrying");
        logger.warn(
          { channel: name, err: describeError(error), attempt: tries, retryInSeconds: delayMs / 1000 },
          `${name}: ${lastError}; retrying in ${delayMs / 1000} s`,
        );
      } finally {
        clearTimeout(slow);
        attempt = undefined;
      }
      await pause(delayMs, waking.signal);
      delayMs = Math.min(delayMs * 2, RETRY_MAX_MS);
    }
  };

  const stop = () => {
    stopping ??= (async () => {
      waking.abort();
      clearTimeout(slow);
      const inFlight = attempt;
      if (inFlight) {
        let timer: NodeJS.Timeout | undefined;
        const bound = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, STOP_WAIT_MS);
        });
        await Promise.race([inFlight.catch(() => undefined), bound]);
        clearTimeout(timer);
      }
      const instance = current;
      current = undefined;
      enter("stopped");
      await instance?.stop();
    })();
    return stopping;
  };

  return {
    plugin,
    channel,
    get instance() {
      return current;
    },
    get describe() {
      return current?.describe ?? name;
    },
    handleWebhook(request) {
      const instance = current;
      if (instance?.handleWebhook) return instance.handleWebhook(request);
      return Promise.resolve(
        notReadyResponse(`The ${name} channel is not connected yet.`, WEBHOOK_RETRY_AFTER_SECONDS),
      );
    },
    status,
    settled,
    async start(broker) {
      if (started || stopping) return;
      started = true;
      run(broker).catch((err: unknown) => {
        logger.error({ channel: name, err: describeError(err) }, `${name}: connecting stopped on a bug`);
      });
    },
    stop,
  };
}
