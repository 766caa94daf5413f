/**
 * The edits of delivered prompt messages a broker makes: each ended question's messages edited to its
 * summary (failures retried with backoff under a repair claim, given up after a day), and each pending
 * form's messages refreshed when its draft changes (one refresh at a time per question).
 */
import { describeError } from "../model/errors.ts";
import type { Delivery, QuestionRecord, RepairClaim } from "../model/types.ts";
import type { Channel } from "../ports/channel.ts";
import type { Clock } from "../ports/clock.ts";
import type { AskUserLogger } from "../ports/logger.ts";
import type { QuestionStore } from "../ports/store.ts";
import { renderSummary } from "../prompt/render.ts";

/** A summary edit that keeps failing is given up this long after the question ended. */
const GIVE_UP_MS = 24 * 60 * 60_000;
/** The longest wait between two tries of a failing summary edit. */
const MAX_BACKOFF_MS = 10 * 60_000;

/** 2 s, 4 s, 8 s, … up to 10 minutes. */
function backoffMs(attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.min(attempts, 20));
}

function deliveryKey(d: Delivery): string {
  return `${d.channel}\u0000${d.conversation}\u0000${d.messageId}`;
}

/** What the edits need from the broker (its `BrokerContext`). */
export interface EditHost {
  readonly store: QuestionStore;
  readonly clock: Clock;
  readonly channels: ReadonlyMap<string, Channel>;
  readonly logger: AskUserLogger;
  readonly instanceId: string;
  claim(until?: number): RepairClaim;
  transition(
    id: string,
    locale: string,
    change: (current: QuestionRecord) => QuestionRecord,
  ): Promise<unknown>;
  /** Told when a failed edit is due for its next try. */
  readonly onRetry: ((at: number) => void) | undefined;
}

/** See the module comment. */
export class MessageEdits {
  constructor(private readonly host: EditHost) {}

  /**
   * Edits every delivered prompt message of an ended record to its summary (on the channels this broker
   * runs), then marks each one done, or counts the failure and claims a retry with backoff; after a day
   * of failures an edit is given up. `onRetry` learns when the next retry is due.
   */
  async finalize(record: QuestionRecord): Promise<void> {
    const summary = renderSummary(record, { locale: record.locale });
    const done = new Set<string>();
    const failed = new Set<string>();
    for (const delivery of record.deliveries) {
      if (delivery.kind !== "prompt" || delivery.finalizedAt !== undefined) continue;
      if (delivery.abandonedAt !== undefined) continue;
      const channel = this.host.channels.get(delivery.channel);
      if (!channel) continue; // an instance that runs that channel repairs it
      try {
        await channel.finalize({ record, delivery, locale: record.locale, summary });
        done.add(deliveryKey(delivery));
      } catch (error) {
        failed.add(deliveryKey(delivery));
        this.host.logger.warn(
          {
            questionId: record.id,
            channel: delivery.channel,
            messageId: delivery.messageId,
            err: describeError(error),
          },
          "could not edit the question message to its summary",
        );
      }
    }
    if (done.size === 0 && failed.size === 0) return;
    const now = this.host.clock.now();
    let retryAt: number | undefined;
    await this.host.transition(record.id, record.locale, (current) => {
      retryAt = undefined;
      for (const delivery of current.deliveries) {
        if (delivery.kind !== "prompt" || delivery.finalizedAt !== undefined) continue;
        const key = deliveryKey(delivery);
        if (done.has(key)) {
          delivery.finalizedAt = now;
        } else if (failed.has(key)) {
          delivery.attempts = (delivery.attempts ?? 0) + 1;
          if (now - (current.resolvedAt ?? now) >= GIVE_UP_MS) delivery.abandonedAt = now;
          else retryAt = Math.min(retryAt ?? Number.POSITIVE_INFINITY, now + backoffMs(delivery.attempts));
        }
      }
      if (retryAt !== undefined) current.claim = this.host.claim(retryAt);
      else if (current.claim?.by === this.host.instanceId) delete current.claim;
      return current;
    });
    if (retryAt !== undefined) this.host.onRetry?.(retryAt);
  }

  /** One refresh at a time per question, each showing the record as stored when it runs. */
  private readonly refreshing = new Map<string, Promise<void>>();

  /** Re-renders a pending prompt's messages with its latest draft (`Channel.refresh`). */
  refresh(id: string): Promise<void> {
    const previous = this.refreshing.get(id) ?? Promise.resolve();
    const next = previous.then(async () => {
      const record = await this.host.store.get(id);
      if (record?.status !== "pending") return;
      for (const delivery of record.deliveries) {
        const channel = delivery.kind === "prompt" ? this.host.channels.get(delivery.channel) : undefined;
        if (!channel?.refresh) continue;
        try {
          await channel.refresh({ record, delivery, locale: record.locale });
        } catch (error) {
          this.host.logger.warn(
            { questionId: id, channel: delivery.channel, err: describeError(error) },
            "could not show the changed draft in the question message",
          );
        }
      }
    });
    this.refreshing.set(id, next);
    void next.finally(() => {
      if (this.refreshing.get(id) === next) this.refreshing.delete(id);
    });
    return next;
  }
}
