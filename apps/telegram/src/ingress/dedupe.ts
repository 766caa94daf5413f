/**
 * Each Telegram update handled once. Telegram redelivers a webhook update whose request failed or timed
 * out, and after a polling hand-over the next instance fetches again what the last one had not
 * confirmed; several instances behind one webhook URL can each get a copy. The same `update_id` must not
 * run twice.
 *
 * With a shared {@link Coordination} (SPEC §9) the mark lives in the store: `firstSeen(
 * "telegram:<bot id>:update:<update_id>", 24 h)` claims the update before it runs. A mark cannot be taken
 * back, so a failed try must not leave the update marked forever while Telegram redelivers it (a webhook
 * answered non-2xx): each update has {@link UPDATE_ATTEMPTS_MAX} numbered tries (`…:update:<id>`,
 * `…:update:<id>:retry:1`, …). A delivery claims the first free try and runs; when it succeeds it uses up
 * every later try, so a duplicate finds none free and is dropped. When it fails (or its process dies
 * mid-way) the later tries stay free and the next delivery runs it again — a bounded number of times.
 * The one case this lets through twice: a redelivery that arrives while the first try is still running
 * (slower than Telegram's webhook timeout, or an instance that lost the polling lease mid-update).
 *
 * Without coordination (one process) a bounded in-memory set does the same, and forgets a failed update.
 */
import { type AskUserLogger, type Coordination, describeError } from "@ask-user/core";
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

/** A bounded set of recently seen ids (oldest forgotten first). */
class RecentIds {
  private readonly ids = new Set<number>();
  constructor(private readonly capacity: number) {}

  /** Adds `id`; false when it was already there. */
  add(id: number): boolean {
    if (this.ids.has(id)) return false;
    this.ids.add(id);
    if (this.ids.size > this.capacity) {
      const oldest = this.ids.values().next();
      if (!oldest.done) this.ids.delete(oldest.value);
    }
    return true;
  }

  delete(id: number): void {
    this.ids.delete(id);
  }
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

  if (coordination === undefined) {
    const seen = new RecentIds(options.capacity ?? UPDATE_DEDUPE_CAPACITY);
    return async (ctx, next) => {
      const id = ctx.update.update_id;
      if (!seen.add(id)) return dropped(id);
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
      logger.warn(
        { channel: name, updateId, err: describeError(error) },
        "could not check the update in the shared store; handling it",
      );
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
    await Promise.all(later).catch((error: unknown) => {
      logger.warn(
        { channel: name, updateId, err: describeError(error) },
        "could not mark the update done in the shared store; a redelivery would run it again",
      );
    });
  };
}
