/**
 * Each Telegram update handled once. Telegram redelivers a webhook update whose request failed or timed
 * out, after a polling hand-over the next instance fetches again what the last one had not confirmed,
 * and several instances behind one webhook URL can each get a copy. Core's `createOnce` gives each update
 * numbered tries (`telegram:<bot id>:update:<id>`, `…:retry:1`, `…:retry:2` — the same keys on every
 * version, so a mixed fleet agrees) in the shared coordination, else in this process's memory: a copy of
 * an update that succeeded is dropped, one whose handling failed runs again.
 */
import { type AskUserLogger, type Coordination, createOnce } from "@ask-user/core/channel";
import type { Context, MiddlewareFn } from "grammy";
import { UPDATE_DEDUPE_TTL_MS } from "../limits.ts";

/** The middleware that drops an update already handled; mount it before the handlers it protects. */
export function createDedupe<C extends Context>(options: {
  name: string;
  logger: AskUserLogger;
  coordination?: Coordination;
}): MiddlewareFn<C> {
  const { name: channel, logger } = options;
  const once = createOnce({ ...options, channel, ttlMs: UPDATE_DEDUPE_TTL_MS });
  return async (ctx, next) => {
    const updateId = ctx.update.update_id;
    if (!(await once.run(`telegram:${ctx.me.id}:update:${updateId}`, () => next())))
      logger.warn({ channel, updateId }, "dropped an update delivered twice");
  };
}
