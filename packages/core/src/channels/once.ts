/**
 * Handled once among instances (SPEC §9), fail-open. A platform redelivers an update whose request
 * failed or timed out, and several instances can each get a copy: the same key must not run twice, yet
 * when the store cannot say, the update is handled (a rare duplicate is better than an answer lost).
 *
 * A mark in the shared {@link Coordination} cannot be taken back, yet a failed try must run again when
 * the platform redelivers it: so {@link Once.run} gives each key numbered tries (`key`, `key:retry:1`,
 * …). A delivery claims the first free try and runs; when it succeeds it uses up every later try, so a
 * copy finds none free and is dropped; when it fails (or its process dies) the later tries stay free for
 * the next delivery. What gets through twice: a copy arriving while the first try is still running.
 */
import { describeError } from "../model/errors.ts";
import { type Coordination, createMemoryCoordination } from "../ports/coordination.ts";
import type { AskUserLogger } from "../ports/logger.ts";

/** Tries of one key in {@link Once.run} unless told otherwise. */
export const ONCE_ATTEMPTS_DEFAULT = 3;

/** Options of {@link createOnce}. */
export interface OnceOptions {
  /** Shared with the other instances; default: this process only ({@link createMemoryCoordination}). */
  coordination?: Coordination;
  /** How long a key is remembered (longer than the platform redelivers). */
  ttlMs: number;
  logger: AskUserLogger;
  /** The channel's name, for logs. */
  channel: string;
  /** Tries of one key in {@link Once.run} (default {@link ONCE_ATTEMPTS_DEFAULT}). */
  attempts?: number;
}

/** "Handled once among instances", made by {@link createOnce}. */
export interface Once {
  /**
   * True the first time any instance sees `key` (`coordination.firstSeen`). When the store fails: logs
   * a warn `{channel, key, err}` "could not check whether this was handled already; handling it" and
   * returns true.
   */
  take(key: string): Promise<boolean>;
  /**
   * Runs `work` unless a delivery of `key` already ran it successfully: numbered tries (`key`,
   * `key:retry:1`, … up to `attempts`). A delivery claims the first free try and runs; on success it
   * marks every later try (so copies are dropped); on failure (throw) the later tries stay free for a
   * redelivery, and the error is rethrown. Returns false (work not run) when no try is free. Store
   * failure while claiming: logs and runs (fail-open); failure marking later tries: logs a warn.
   */
  run(key: string, work: () => Promise<void>): Promise<boolean>;
}

/** The key of try `attempt` (0 is the first) of `key`. */
function tryKey(key: string, attempt: number): string {
  return attempt === 0 ? key : `${key}:retry:${attempt}`;
}

/**
 * "Handled once" for a channel's updates: {@link Once.take} for a request handled at most once,
 * {@link Once.run} for one that may be delivered again after it failed.
 *
 * @example
 * const once = createOnce({ coordination: store, ttlMs: 86_400_000, logger, channel: "telegram" });
 * const ran = await once.run(`telegram:${botId}:update:${updateId}`, () => next());
 * if (!ran) logger.warn({ channel: "telegram", updateId }, "dropped an update delivered twice");
 */
export function createOnce(options: OnceOptions): Once {
  const { ttlMs, logger, channel } = options;
  const attempts = options.attempts ?? ONCE_ATTEMPTS_DEFAULT;
  if (!Number.isInteger(attempts) || attempts < 1)
    throw new RangeError(`createOnce: attempts must be a whole number of at least 1, not ${attempts}.`);
  if (!(ttlMs > 0)) throw new RangeError(`createOnce: ttlMs must be more than 0, not ${ttlMs}.`);
  const coordination = options.coordination ?? createMemoryCoordination();
  const warn = (key: string, message: string) => (error: unknown) =>
    logger.warn({ channel, key, err: describeError(error) }, message);

  /** The try this delivery may run (undefined: none left), or "unknown" when the store failed. */
  const claim = async (key: string): Promise<number | "unknown" | undefined> => {
    try {
      for (let attempt = 0; attempt < attempts; attempt++) {
        if (await coordination.firstSeen(tryKey(key, attempt), ttlMs)) return attempt;
      }
      return undefined;
    } catch (error) {
      warn(key, "could not check whether this was handled already; handling it")(error);
      return "unknown";
    }
  };

  /** Uses up every try of `key` from `from` on, so that a copy finds none free. */
  const markLater = async (key: string, from: number): Promise<void> => {
    const later: Array<Promise<boolean>> = [];
    for (let n = from; n < attempts; n++) later.push(coordination.firstSeen(tryKey(key, n), ttlMs));
    await Promise.all(later);
  };

  return {
    async take(key) {
      try {
        return await coordination.firstSeen(key, ttlMs);
      } catch (error) {
        warn(key, "could not check whether this was handled already; handling it")(error);
        return true;
      }
    },

    async run(key, work) {
      const attempt = await claim(key);
      if (attempt === undefined) return false;
      await work(); // a failure leaves the later tries free for a redelivery
      if (attempt === "unknown") return true;
      await markLater(key, attempt + 1).catch(
        warn(key, "could not mark this handled in the shared store; a redelivery would run it again"),
      );
      return true;
    },
  };
}
