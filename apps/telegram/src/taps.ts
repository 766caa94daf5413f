/**
 * Taps answered in time: Telegram's client spins on a tapped button until the bot answers the callback
 * query, and a store waiting for a lock can hold the broker for seconds. A tap whose outcome is not
 * there {@link TAP_ACK_DEADLINE_MS} after its update arrived is answered without text; the outcome is
 * shown later (the message edit, or a refusal as a reply).
 */
import { type AskUserLogger, decodeAction, describeError } from "@ask-user/core/channel";
import type { Api, Context, MiddlewareFn } from "grammy";
import type { Update } from "grammy/types";
import { TAP_ACK_DEADLINE_MS } from "./limits.ts";

/** One callback query, answered at most once. */
export interface Tap {
  /** True once the deadline answered it without text: show the outcome some other way. */
  readonly late: boolean;
  /** Answers with the outcome (a toast, or a popup with `show_alert`); false when answered already. */
  answer(answer: { text?: string; show_alert?: boolean }): Promise<boolean>;
  /** Ends the deadline without answering: the tap is not the channel's, the host's handlers answer it. */
  release(): void;
}

const taps = new WeakMap<Update, Tap>();

/** The tap of a callback query update {@link createTapDeadline} let through. */
export function tapOf(ctx: Context): Tap | undefined {
  return taps.get(ctx.update);
}

/**
 * The middleware that starts the deadline of every tap on one of core's buttons; other updates pass
 * untouched. Mount it before anything that may wait on the store (the dedupe included).
 */
export function createTapDeadline<C extends Context>(options: {
  name: string;
  api: Api;
  logger: AskUserLogger;
}): MiddlewareFn<C> {
  const { name, api, logger } = options;
  return async (ctx, next) => {
    const query = ctx.callbackQuery;
    if (query?.data === undefined || !decodeAction(query.data)) return next();
    let answered = false;
    let late = false;
    const send: Tap["answer"] = async (answer) => {
      if (answered) return false;
      answered = true;
      await api.answerCallbackQuery(query.id, answer).catch((error: unknown) => {
        logger.warn({ channel: name, err: describeError(error) }, "could not answer a callback query");
      });
      return true;
    };
    const timer = setTimeout(() => {
      late = !answered;
      void send({});
    }, TAP_ACK_DEADLINE_MS);
    const release = () => clearTimeout(timer);
    taps.set(ctx.update, {
      get late() {
        return late;
      },
      answer(answer) {
        release();
        return send(answer);
      },
      release,
    });
    try {
      await next();
    } finally {
      release(); // e.g. a duplicate dropped by the dedupe: its first delivery answers it
    }
  };
}
