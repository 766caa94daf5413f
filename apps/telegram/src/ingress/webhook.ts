/**
 * The Telegram webhook as one web-standard handler, `(Request) => Promise<Response>`, around grammY's
 * `webhookCallback(bot, "std/http", { secretToken })`: a wrong or missing secret header gets 401 and no
 * handler runs (compared in constant time), a method other than POST 405. The gateway mounts it at
 * `/channels/telegram`; the standalone runner serves it on the adapter's `listen` address.
 *
 * Telegram delivers an update again when its request is not answered 2xx in time, so a slow update (a
 * store waiting for a lock) must not be answered late or with an error while it still runs. An update
 * handled within {@link WEBHOOK_ANSWER_WITHIN_MS} is answered with its outcome (500 on failure: Telegram
 * delivers it again, and the dedupe lets it run again); past that it is answered 200 and goes on in the
 * background, at most {@link WEBHOOK_BACKGROUND_MAX} at a time (beyond, 503 with `Retry-After`).
 */
import { type AskUserLogger, describeError } from "@ask-user/core/channel";
import { type Bot, type Context, webhookCallback } from "grammy";
import {
  WEBHOOK_ANSWER_WITHIN_MS,
  WEBHOOK_BACKGROUND_MAX,
  WEBHOOK_NOT_READY_RETRY_AFTER_SECONDS,
} from "../limits.ts";

/** A web-standard request handler that can say when its background work is done. */
export interface WebhookHandler {
  (request: Request): Promise<Response>;
  /** Resolves once every update still handled in the background has finished (true), or after `waitMs`. */
  settled(waitMs?: number): Promise<boolean>;
}

/** Options of {@link createWebhookHandler}. */
export interface WebhookHandlerOptions {
  /** The `secret_token` given to `setWebhook`: requests must carry it in `X-Telegram-Bot-Api-Secret-Token`. */
  secretToken: string;
  logger: AskUserLogger;
  /** Answer 200 and go on in the background after this long (default {@link WEBHOOK_ANSWER_WITHIN_MS}). */
  answerWithinMs?: number;
  /** Updates handled in the background at most (default {@link WEBHOOK_BACKGROUND_MAX}). */
  backgroundMax?: number;
}

/** Resolves to `undefined` after `ms` (never when infinite); `cancel` clears the timer. */
function pause(ms: number): { done: Promise<undefined>; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  const done = new Promise<undefined>((resolve) => {
    if (Number.isFinite(ms)) timer = setTimeout(() => resolve(undefined), ms);
  });
  return { done, cancel: () => clearTimeout(timer) };
}

/**
 * A handler that feeds the bot from Telegram's webhook requests (see the module comment).
 *
 * @example
 * const webhook = createWebhookHandler(bot, { secretToken, logger });
 * await bot.api.setWebhook("https://gw.example.com/channels/telegram", { secret_token: secretToken });
 * const response = await webhook(request); // mounted by the gateway at /channels/telegram
 * await webhook.settled(10_000); // on shutdown: updates still handled in the background
 */
export function createWebhookHandler<C extends Context>(
  bot: Bot<C>,
  options: WebhookHandlerOptions,
): WebhookHandler {
  const { logger } = options;
  // No timeout of grammY's own: it would answer 500 while the update is still being handled.
  const handle = webhookCallback(bot, "std/http", {
    secretToken: options.secretToken,
    timeoutMilliseconds: Number.POSITIVE_INFINITY,
  });
  const answerWithinMs = options.answerWithinMs ?? WEBHOOK_ANSWER_WITHIN_MS;
  const backgroundMax = options.backgroundMax ?? WEBHOOK_BACKGROUND_MAX;
  const background = new Set<Promise<void>>();

  const run = async (request: Request, answered: () => boolean): Promise<Response> => {
    try {
      return await handle(request);
    } catch (error) {
      const message = answered()
        ? "webhook update failed after it was answered 200 (Telegram does not deliver it again)"
        : "webhook update failed";
      logger.error({ channel: "telegram", err: describeError(error) }, message);
      return new Response(null, { status: 500 });
    }
  };

  const handler = async (request: Request): Promise<Response> => {
    if (request.method !== "POST") return new Response(null, { status: 405, headers: { allow: "POST" } });
    if (background.size >= backgroundMax) {
      logger.warn(
        { channel: "telegram", background: background.size },
        "too many webhook updates still being handled: answered 503, Telegram delivers it again later",
      );
      return Response.json(
        { ok: false, error: "Too many updates are still being handled; try again." },
        { status: 503, headers: { "retry-after": String(WEBHOOK_NOT_READY_RETRY_AFTER_SECONDS) } },
      );
    }
    let answered = false;
    const task = run(request, () => answered);
    const timer = pause(answerWithinMs);
    const response = await Promise.race([task, timer.done]);
    timer.cancel();
    if (response) return response;
    answered = true;
    const rest = task.then(() => undefined);
    background.add(rest);
    void rest.then(() => background.delete(rest));
    logger.warn(
      { channel: "telegram", afterMs: answerWithinMs },
      "a webhook update is slow: answered 200 so that Telegram does not deliver it again; still handling it",
    );
    return new Response(null, { status: 200 });
  };

  return Object.assign(handler, {
    async settled(waitMs = Number.POSITIVE_INFINITY) {
      const timer = pause(waitMs);
      await Promise.race([Promise.all([...background]), timer.done]);
      timer.cancel();
      return background.size === 0;
    },
  });
}
