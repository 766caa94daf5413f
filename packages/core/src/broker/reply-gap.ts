import type { QuestionRecord } from "../model/types.ts";
import type { BrokerContext } from "./context.ts";
import type { ReplyEvent } from "./inbound-types.ts";

/**
 * How long a reply to a message the store does not know waits for prompts still being delivered in its
 * conversation. A person can reply to a prompt as soon as the platform shows it, a moment before the
 * platform's answer with its message id reaches us and is stored.
 */
export const REPLY_GAP_WAIT_MS = 3_000;

/** Pending, sent or being sent, its prompt message not recorded yet, by a sender whose claim holds. */
function beingDelivered(record: QuestionRecord, now: number): boolean {
  return (
    record.status === "pending" &&
    record.target !== undefined &&
    !record.deliveries.some((d) => d.kind === "prompt") &&
    record.claim !== undefined &&
    record.claim.until > now
  );
}

/**
 * The question whose message `event` replies to (SPEC §7 rule 1), closing the gap between a prompt being
 * sent and its message id being stored: when the store does not know the message and a prompt is being
 * delivered in the same conversation (by this or another instance), waits until those deliveries are
 * recorded — at most {@link REPLY_GAP_WAIT_MS} — and looks again. Without such a delivery it looks once
 * more at once (one may have been recorded between the two reads) and answers: the message is then
 * simply not one of ours.
 */
export async function findRepliedTo(
  ctx: BrokerContext,
  event: ReplyEvent,
): Promise<QuestionRecord | undefined> {
  const replyTo = event.replyTo;
  if (replyTo === undefined) return undefined;
  const find = () => ctx.store.findByMessage(event.channel, event.conversation, replyTo);
  // Listening before looking: a delivery recorded between the look and the wait is not missed.
  const recorded = new Set<string>();
  let waiting: Set<string> | undefined;
  let wake: () => void = () => undefined;
  const unsubscribe = ctx.store.subscribe(({ record }) => {
    if (beingDelivered(record, Number.NEGATIVE_INFINITY)) return;
    recorded.add(record.id);
    waiting?.delete(record.id);
    if (waiting?.size === 0) wake();
  });
  let cancel: (() => void) | undefined;
  try {
    const found = await find();
    if (found) return found;
    const now = ctx.clock.now();
    const inFlight = (
      await ctx.store.list({ status: "pending", channel: event.channel, conversation: event.conversation })
    ).filter((record) => beingDelivered(record, now) && !recorded.has(record.id));
    // None in flight: look once more, since one may have been recorded between the two reads (a writer
    // thread's commit is read before its change is told); otherwise the message is not one of ours.
    if (inFlight.length === 0) return await find();
    waiting = new Set(inFlight.map((record) => record.id));
    await new Promise<void>((resolve) => {
      wake = resolve;
      cancel = ctx.clock.setTimer(resolve, REPLY_GAP_WAIT_MS);
    });
    return await find();
  } finally {
    cancel?.();
    unsubscribe();
  }
}
