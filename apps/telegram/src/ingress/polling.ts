/**
 * Long polling that does not silently stop, on one instance at a time. grammY's `bot.start` ends by
 * throwing when `getUpdates` answers 409 Conflict (another `getUpdates` on the token: a sibling during a
 * lease hand-over, a process without the shared store, or a webhook set) or 401: every such end is
 * logged and polling starts again after a pause, until stopped. With a shared store only the holder of
 * the lease `telegram:<bot id>:polling` polls; the others send and edit through the Bot API, and take
 * over within seconds when the holder dies.
 */
import { randomUUID } from "node:crypto";
import { type ChannelLogger, type Coordination, describeError, keepLease } from "@ask-user/core/channel";
import { type Bot, type Context, GrammyError } from "grammy";
import type { Update } from "grammy/types";
import { POLLING_RETRY_DELAY_MS } from "../limits.ts";

/** Options of {@link startPolling}. */
export interface PollingOptions {
  allowedUpdates: ReadonlyArray<Exclude<keyof Update, "update_id">>;
  logger: ChannelLogger;
  /** Pause before polling again after it stopped on an error (default 3000). */
  retryDelayMs?: number;
  /** Shared with the other instances: only the holder of the polling lease polls. */
  coordination?: Coordination;
  /** This instance's name in the lease (default: a random id). */
  instanceId?: string;
  /** How long the lease lasts unrenewed (default: core's 6 s); a dead holder is replaced within ~this. */
  leaseTtlMs?: number;
}

/** Long polling as {@link startPolling} runs it. */
export interface Polling {
  /** The lease name, when polling runs under a lease. */
  lease?: string;
  /** Stops polling (once the update in hand is handled) and gives the lease up. */
  stop(): Promise<void>;
}

/** True for the Bot API's 409 Conflict (another `getUpdates`, or a webhook set). */
export function isConflict(error: unknown): boolean {
  return error instanceof GrammyError && error.error_code === 409;
}

/**
 * `bot.start` in a loop that starts it again after it stopped on an error, until `stop`. Starts and
 * stops may alternate (a lease comes and goes): a start waits until the previous run has finished.
 * `firstStart` settles with the first start: resolved when `getUpdates` is about to run, rejected with
 * the error when that first try failed before (retries go on anyway).
 */
function createPoller<C extends Context>(bot: Bot<C>, options: PollingOptions) {
  const { logger } = options;
  const retryDelayMs = options.retryDelayMs ?? POLLING_RETRY_DELAY_MS;
  let settle: (error?: unknown) => void = () => undefined;
  const firstStart = new Promise<void>((resolve, reject) => {
    settle = (error) => (error === undefined ? resolve() : reject(error));
  });
  firstStart.catch(() => undefined); // whoever awaits it sees the error; nobody has to
  /** The current run: `wanted` turns false on stop; `wake` ends its pause early. */
  let current: { wanted: boolean; wake?: () => void } | undefined;
  let finished: Promise<void> = Promise.resolve();

  const loop = async (run: NonNullable<typeof current>) => {
    while (run.wanted) {
      try {
        await bot.start({ allowed_updates: options.allowedUpdates, onStart: () => settle() });
        if (!run.wanted) return;
        logger.warn({ channel: "telegram" }, "long polling ended by itself; polling again");
      } catch (error) {
        if (!run.wanted) return;
        settle(error);
        const details = { channel: "telegram", err: describeError(error), retryInMs: retryDelayMs };
        if (!isConflict(error)) logger.error(details, "long polling stopped on an error; polling again");
        else
          logger.warn(
            details,
            "getUpdates was refused with 409 Conflict: another getUpdates runs on this token (an instance " +
              "handing over, or one without the shared store) or a webhook is set; polling again",
          );
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, retryDelayMs);
        run.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  };

  return {
    firstStart,
    start() {
      if (current?.wanted) return;
      const run = { wanted: true };
      current = run;
      finished = finished.then(() => loop(run));
    },
    async stop() {
      if (current) current.wanted = false;
      current?.wake?.();
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
 * Starts long polling: at once when this process is alone (no coordination; rejects when the first try
 * fails), else whenever this instance holds the lease `telegram:<bot id>:polling`. Resolves once this
 * instance polls, or knows that another one does. Needs `bot.init()` done.
 *
 * @example
 * await bot.init();
 * const polling = await startPolling(bot, { allowedUpdates: ["message"], logger, coordination: store });
 * await polling.stop(); // later
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
    acquireLease: (name, by, ttlMs) =>
      coordination.acquireLease(name, by, ttlMs).then(
        (got) => {
          decide(got);
          return got;
        },
        (error: unknown) => {
          decide(false);
          throw error;
        },
      ),
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
    lease,
    async stop() {
      stopping = true;
      await poller.stop();
      await keeper.stop();
    },
  };
}
