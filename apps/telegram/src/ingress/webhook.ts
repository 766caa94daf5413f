/**
 * The Telegram webhook as one web-standard handler around grammY's `webhookCallback(bot, "std/http")`:
 * a wrong secret header gets 401, a method other than POST 405. Telegram delivers an update again when
 * it is not answered 2xx in time, so a slow one (a store waiting for a lock) is answered 200 after
 * {@link WEBHOOK_ANSWER_WITHIN_MS} and finished in the background (core's `createBackground`, bounded:
 * beyond, 503); a failure within the time is answered 500, so Telegram delivers it again.
 */
import {
  type AskUserLogger,
  createBackground,
  describeError,
  notReadyResponse,
} from "@ask-user/core/channel";
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
  /** The `secret_token` given to `setWebhook`: requests carry it in `X-Telegram-Bot-Api-Secret-Token`. */
  secretToken: string;
  logger: AskUserLogger;
  /** Default {@link WEBHOOK_ANSWER_WITHIN_MS}. */
  answerWithinMs?: number;
  /** Default {@link WEBHOOK_BACKGROUND_MAX}. */
  backgroundMax?: number;
}

/** A handler that feeds the bot from Telegram's webhook requests; `settled` on shutdown. */
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
  const withinMs = options.answerWithinMs ?? WEBHOOK_ANSWER_WITHIN_MS;
  const background = createBackground({
    withinMs,
    max: options.backgroundMax ?? WEBHOOK_BACKGROUND_MAX,
    logger,
    channel: "telegram",
    lateFailureMessage:
      "webhook update failed after it was answered 200 (Telegram does not deliver it again)",
  });

  const handler = async (request: Request): Promise<Response> => {
    if (request.method !== "POST") return new Response(null, { status: 405, headers: { allow: "POST" } });
    try {
      const outcome = await background.run(() => handle(request));
      if (outcome.kind === "done") return outcome.value;
      if (outcome.kind === "busy") {
        logger.warn(
          { channel: "telegram", background: background.size },
          "too many webhook updates still being handled: answered 503, Telegram delivers it again later",
        );
        const message = "Too many updates are still being handled; try again.";
        return notReadyResponse(message, WEBHOOK_NOT_READY_RETRY_AFTER_SECONDS);
      }
      logger.warn(
        { channel: "telegram", afterMs: withinMs },
        "a webhook update is slow: answered 200 so that Telegram does not deliver it again; still handling it",
      );
      return new Response(null, { status: 200 });
    } catch (error) {
      logger.error({ channel: "telegram", err: describeError(error) }, "webhook update failed");
      return new Response(null, { status: 500 });
    }
  };
  return Object.assign(handler, { settled: (waitMs?: number) => background.settled(waitMs) });
}
