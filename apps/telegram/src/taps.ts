/**
 * Taps answered in time. Telegram's client shows a spinner on a tapped button until the bot answers the
 * callback query, and a store waiting for a lock can hold the broker for many seconds. So each tap on
 * one of core's buttons gets a deadline ({@link TAP_ACK_DEADLINE_MS}) from the moment its update
 * arrives: when the outcome is not there by then, the query is answered without text at once, and the
 * outcome is shown later (a recorded answer by the message edit, a refusal as a reply message — Telegram
 * has no message that only one person sees).
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

/** The tap of a callback query update that {@link createTapDeadline} let through. */
export function tapOf(ctx: Context): Tap | undefined {
  return taps.get(ctx.update);
}

/** Options of {@link createTapDeadline}. */
export interface TapDeadlineOptions {
  /** The channel's name, for logs. */
  name: string;
  api: Api;
  logger: AskUserLogger;
  /** Default {@link TAP_ACK_DEADLINE_MS}. */
  deadlineMs?: number;
}

function createTap(options: TapDeadlineOptions, queryId: string): Tap {
  let answered = false;
  let late = false;
  const send: Tap["answer"] = async (answer) => {
    if (answered) return false;
    answered = true;
    await options.api.answerCallbackQuery(queryId, answer).catch((error: unknown) => {
      options.logger.warn(
        { channel: options.name, err: describeError(error) },
        "could not answer a callback query",
      );
    });
    return true;
  };
  const timer = setTimeout(() => {
    late = !answered;
    void send({});
  }, options.deadlineMs ?? TAP_ACK_DEADLINE_MS);
  return {
    get late() {
      return late;
    },
    answer(answer) {
      clearTimeout(timer);
      return send(answer);
    },
    release: () => clearTimeout(timer),
  };
}

/**
 * The middleware that starts the deadline of every tap on a button of core's (its `callback_data` is
 * core's action payload); other updates pass untouched. Mount it before anything that may wait on the
 * store (the dedupe included). Handlers find the tap with {@link tapOf}.
 */
export function createTapDeadline<C extends Context>(options: TapDeadlineOptions): MiddlewareFn<C> {
  return async (ctx, next) => {
    const query = ctx.callbackQuery;
    if (query?.data === undefined || !decodeAction(query.data)) return next();
    const tap = createTap(options, query.id);
    taps.set(ctx.update, tap);
    try {
      await next();
    } finally {
      tap.release(); // e.g. a duplicate dropped by the dedupe: its first delivery answers it
    }
  };
}
