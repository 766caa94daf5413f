/**
 * The Telegram webhook as one web-standard handler, `(Request) => Promise<Response>`: grammY's
 * `webhookCallback(bot, "std/http", { secretToken })`. The gateway mounts it at `/channels/telegram` on
 * its own port; the standalone runner serves the same handler on the instance's `listen` address.
 */
import { type AskUserLogger, describeError } from "@ask-user/core";
import { type Bot, type Context, webhookCallback } from "grammy";

/** A web-standard request handler, as hosts mount it. */
export type WebhookHandler = (request: Request) => Promise<Response>;

/** Options of {@link createWebhookHandler}. */
export interface WebhookHandlerOptions {
  /** The `secret_token` given to `setWebhook`: requests must carry it in `X-Telegram-Bot-Api-Secret-Token`. */
  secretToken: string;
  logger: AskUserLogger;
}

/**
 * A handler that feeds the bot from Telegram's webhook requests. A wrong or missing secret header gets
 * 401 and no handler runs (grammY compares it in constant time); a method other than POST gets 405.
 * When a handler fails the answer is 500, so that Telegram delivers the update again (the channel's
 * dedupe lets a failed update run again, and drops a copy of one that succeeded).
 *
 * @example
 * const webhook = createWebhookHandler(bot, { secretToken, logger });
 * await bot.api.setWebhook("https://gw.example.com/channels/telegram", { secret_token: secretToken });
 * const response = await webhook(request); // mounted by the gateway at /channels/telegram
 */
export function createWebhookHandler<C extends Context>(
  bot: Bot<C>,
  options: WebhookHandlerOptions,
): WebhookHandler {
  const handle = webhookCallback(bot, "std/http", { secretToken: options.secretToken });
  return async (request) => {
    if (request.method !== "POST") return new Response(null, { status: 405, headers: { allow: "POST" } });
    try {
      return await handle(request);
    } catch (error) {
      options.logger.error({ channel: "telegram", err: describeError(error) }, "webhook update failed");
      return new Response(null, { status: 500 });
    }
  };
}
