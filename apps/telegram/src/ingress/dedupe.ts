/**
 * Each Telegram update handled once. Telegram redelivers a webhook update whose request failed or timed
 * out, after a polling hand-over the next instance fetches again what the last one had not confirmed,
 * and several instances behind one webhook URL can each get a copy: the same `update_id` must not run
 * twice.
 *
 * With a shared {@link Coordination} (SPEC §9) the mark lives in the store. A mark cannot be taken back,
 * yet a failed try must run again when Telegram redelivers it: so each update has
 * {@link UPDATE_ATTEMPTS_MAX} numbered tries (`telegram:<bot id>:update:<id>`, `…:retry:1`, …). A
 * delivery claims the first free try and runs; when it succeeds it uses up every later try, so a copy
 * finds none free and is dropped; when it fails (or its process dies) the later tries stay free for the
 * next delivery. What gets through twice: a copy arriving while the first try is still running. Without
 * coordination (one process) a bounded in-memory set does the same, and forgets a failed update.
 */
import {
  type AskUserLogger,
  type Coordination,
  describeError,
  rememberBounded,
} from "@ask-user/core/channel";
import type { Context, MiddlewareFn } from "grammy";
import { UPDATE_ATTEMPTS_MAX, UPDATE_DEDUPE_CAPACITY, UPDATE_DEDUPE_TTL_MS } from "../limits.ts";

/** Options of {@link createDedupe}. */
export interface DedupeOptions {
  /** The channel's name, for logs. */
  name: string;
  /** Shared with the other instances; without it, updates are remembered in this process only. */
  coordination?: Coordination;
  logger: AskUserLogger;
  /** How many recent update ids the in-memory set keeps (no coordination). */
  capacity?: number;
}

/** The dedupe key of try `attempt` (0 is the first) of an update. */
export function updateKey(botId: number, updateId: number, attempt = 0): string {
  const key = `telegram:${botId}:update:${updateId}`;
  return attempt === 0 ? key : `${key}:retry:${attempt}`;
}

/**
 * The middleware that drops an update already handled (by this or, with coordination, any instance).
 * Mount it before the handlers it protects.
 *
 * @example
 * bot.use(createDedupe({ name: "telegram", coordination: store, logger }));
 */
export function createDedupe<C extends Context>(options: DedupeOptions): MiddlewareFn<C> {
  const { name, logger, coordination } = options;
  const dropped = (updateId: number) =>
    logger.warn({ channel: name, updateId }, "dropped an update delivered twice");
  const warn = (updateId: number, message: string) => (error: unknown) =>
    logger.warn({ channel: name, updateId, err: describeError(error) }, message);

  if (coordination === undefined) {
    const seen = new Map<string, true>();
    return async (ctx, next) => {
      const id = String(ctx.update.update_id);
      if (seen.has(id)) return dropped(ctx.update.update_id);
      rememberBounded(seen, id, true, options.capacity ?? UPDATE_DEDUPE_CAPACITY);
      try {
        await next();
      } catch (error) {
        seen.delete(id); // a failed update may be delivered again, and then it should run
        throw error;
      }
    };
  }

  /** The try this delivery may run (undefined: none left), or "unknown" when the store failed. */
  const claim = async (botId: number, updateId: number): Promise<number | "unknown" | undefined> => {
    try {
      for (let attempt = 0; attempt < UPDATE_ATTEMPTS_MAX; attempt++) {
        if (await coordination.firstSeen(updateKey(botId, updateId, attempt), UPDATE_DEDUPE_TTL_MS))
          return attempt;
      }
      return undefined;
    } catch (error) {
      warn(updateId, "could not check the update in the shared store; handling it")(error);
      return "unknown";
    }
  };

  return async (ctx, next) => {
    const botId = ctx.me.id;
    const updateId = ctx.update.update_id;
    const attempt = await claim(botId, updateId);
    if (attempt === undefined) return dropped(updateId);
    await next(); // a failure leaves the later tries free for a redelivery
    if (attempt === "unknown") return;
    const later: Array<Promise<boolean>> = [];
    for (let n = attempt + 1; n < UPDATE_ATTEMPTS_MAX; n++)
      later.push(coordination.firstSeen(updateKey(botId, updateId, n), UPDATE_DEDUPE_TTL_MS));
    await Promise.all(later).catch(
      warn(updateId, "could not mark the update done in the shared store; a redelivery would run it again"),
    );
  };
}
