/**
 * Long polling that does not silently stop, on one instance at a time. grammY's `bot.start` ends by
 * throwing on a 409 Conflict (another `getUpdates` on the token: a sibling during a hand-over, a process
 * without the shared store, or a webhook set) or a 401: each end is logged and polling starts again after
 * a pause, until stopped. With a shared store only the holder of the lease `telegram:<bot id>:polling`
 * polls; the others send and edit, and take over when the holder dies.
 */
import { randomUUID } from "node:crypto";
import {
  type ChannelLogger,
  type Coordination,
  describeError,
  keepLease,
  pause,
} from "@ask-user/core/channel";
import { type Bot, type Context, GrammyError } from "grammy";
import type { Update } from "grammy/types";
import { POLLING_RETRY_DELAY_MS } from "../limits.ts";

/** Options of {@link startPolling}. */
export interface PollingOptions {
  allowedUpdates: ReadonlyArray<Exclude<keyof Update, "update_id">>;
  logger: ChannelLogger;
  /** Default {@link POLLING_RETRY_DELAY_MS}. */
  retryDelayMs?: number;
  /** Shared with the other instances: only the holder of the polling lease polls. */
  coordination?: Coordination;
  /** This instance's name in the lease (default: a random id). */
  instanceId?: string;
  /** Default: core's 6 s; a dead holder is replaced within about this. */
  leaseTtlMs?: number;
}

/** Long polling as {@link startPolling} runs it. */
export interface Polling {
  /** Stops polling (once the update in hand is handled) and gives the lease up. */
  stop(): Promise<void>;
}

/**
 * `bot.start` again after it stopped on an error, until `stop`; a start waits for the previous run (a
 * lease comes and goes). `firstStart`: resolved when `getUpdates` is about to run, or rejected with the
 * error of the first try (retries go on anyway).
 */
function createPoller<C extends Context>(bot: Bot<C>, options: PollingOptions) {
  const { logger } = options;
  const retryDelayMs = options.retryDelayMs ?? POLLING_RETRY_DELAY_MS;
  let settle: (error?: unknown) => void = () => undefined;
  const firstStart = new Promise<void>((resolve, reject) => {
    settle = (error) => (error === undefined ? resolve() : reject(error));
  });
  firstStart.catch(() => undefined); // whoever awaits it sees the error; nobody has to
  /** The current run, aborted by `stop` (which also ends its pause). */
  let current: AbortController | undefined;
  let finished: Promise<void> = Promise.resolve();

  const loop = async ({ signal }: AbortController) => {
    while (!signal.aborted) {
      try {
        await bot.start({ allowed_updates: options.allowedUpdates, onStart: () => settle() });
        if (signal.aborted) return;
        logger.warn({ channel: "telegram" }, "long polling ended by itself; polling again");
      } catch (error) {
        if (signal.aborted) return;
        settle(error);
        const details = { channel: "telegram", err: describeError(error), retryInMs: retryDelayMs };
        if (!(error instanceof GrammyError && error.error_code === 409))
          logger.error(details, "long polling stopped on an error; polling again");
        else
          logger.warn(
            details,
            "getUpdates was refused with 409 Conflict: another getUpdates runs on this token (an instance " +
              "handing over, or one without the shared store) or a webhook is set; polling again",
          );
      }
      await pause(retryDelayMs, signal);
    }
  };

  return {
    firstStart,
    start() {
      if (current && !current.signal.aborted) return;
      const run = new AbortController();
      current = run;
      finished = finished.then(() => loop(run));
    },
    async stop() {
      current?.abort();
      if (bot.isRunning()) {
        await bot.stop().catch((error: unknown) => {
          logger.warn(
            { channel: "telegram", err: describeError(error) },
            "could not stop long polling cleanly",
          );
        });
      }
      await finished;
    },
  };
}

/**
 * Starts long polling (after `bot.init()`): at once when this process is alone (rejects when the first
 * try fails), else whenever this instance holds the lease. Resolves once this instance polls, or knows
 * that another one does.
 *
 * @example
 * const polling = await startPolling(bot, { allowedUpdates: ["message"], logger, coordination: store });
 */
export async function startPolling<C extends Context>(
  bot: Bot<C>,
  options: PollingOptions,
): Promise<Polling> {
  const { logger, coordination } = options;
  const poller = createPoller(bot, options);
  if (coordination === undefined) {
    poller.start();
    await poller.firstStart.catch(async (error: unknown) => {
      await poller.stop();
      throw error;
    });
    return { stop: () => poller.stop() };
  }

  const lease = `telegram:${bot.botInfo.id}:polling`;
  const holder = options.instanceId ?? randomUUID();
  let decide: (held: boolean) => void = () => undefined;
  const decided = new Promise<boolean>((resolve) => {
    decide = resolve;
  });
  // Sees the first answer about the lease, so that the caller knows who polls once this resolves.
  const observed: Coordination = {
    firstSeen: (key, ttlMs) => coordination.firstSeen(key, ttlMs),
    releaseLease: (name, by) => coordination.releaseLease(name, by),
    acquireLease: async (name, by, ttlMs) => {
      const got = await coordination.acquireLease(name, by, ttlMs).catch((error: unknown) => {
        decide(false);
        throw error;
      });
      decide(got);
      return got;
    },
  };
  let stopping = false;
  const details = { channel: "telegram", lease, instance: holder };
  const keeper = keepLease({
    coordination: observed,
    name: lease,
    holder,
    logger,
    ...(options.leaseTtlMs === undefined ? {} : { ttlMs: options.leaseTtlMs }),
    onAcquired: () => {
      if (stopping) return;
      logger.info?.(details, "this instance holds the polling lease: polling");
      poller.start();
    },
    onLost: async () => {
      if (!stopping) logger.warn(details, "lost the polling lease: stopped polling");
      await poller.stop();
    },
  });
  if (await decided) await poller.firstStart.catch(() => undefined);
  else logger.info?.(details, "another instance polls: this one sends and edits only");
  return {
    async stop() {
      stopping = true;
      await poller.stop();
      await keeper.stop();
    },
  };
}
