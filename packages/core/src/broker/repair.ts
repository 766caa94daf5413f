import { describeError } from "../model/errors.ts";
import { needsRepair, type QuestionRecord } from "../model/types.ts";
import type { CancelTimer } from "../ports/clock.ts";
import type { BrokerContext } from "./context.ts";
import { deliver } from "./deliver.ts";
import { LIVENESS_TTL_MS, type Liveness } from "./liveness.ts";

/** Not ours to repair (another instance holds it, or it needs nothing any more). */
const NOT_OURS = { reason: "unknown", message: "" } as const;

/**
 * Repair (SPEC §4): finishes what a crash, a failed edit or another instance left undone. A sweep lists
 * the questions that need it (an indexed store query), claims each one through the store (a
 * compare-and-set, so among several instances exactly one takes it, and only one that runs the channel),
 * then delivers a stored-but-undelivered prompt (or ends it `undeliverable`) or edits an ended prompt to
 * its summary. Sweeps run at start, every `intervalMs`, and when a claim or a retry falls due. A claim
 * counts as dead before its time when its owner is gone: a restart of this same instance (another start
 * under the same `instanceId`), or a broker whose liveness lease ran out or was given up (see `Liveness`).
 */
export class Repairer {
  private cancel: CancelTimer | undefined;
  private nextAt = Number.POSITIVE_INFINITY;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly ctx: BrokerContext,
    private readonly intervalMs: number,
    private readonly liveness: Liveness,
  ) {
    ctx.onRetry = (at) => this.schedule(at);
  }

  /** Runs one sweep now (waits for one already running), and keeps sweeping after it. */
  sweep(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.running ??= this.sweepOnce().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  stop(): void {
    this.stopped = true;
    this.cancel?.();
    this.cancel = undefined;
  }

  private schedule(at: number): void {
    if (this.stopped || at >= this.nextAt) return;
    this.cancel?.();
    this.nextAt = at;
    this.cancel = this.ctx.clock.setTimer(
      () => {
        this.nextAt = Number.POSITIVE_INFINITY;
        this.cancel = undefined;
        this.ctx.background(this.sweep());
      },
      Math.max(0, at - this.ctx.clock.now()),
    );
  }

  private async sweepOnce(): Promise<void> {
    const { ctx } = this;
    const now = ctx.clock.now();
    let next = now + this.intervalMs;
    try {
      for (const record of await ctx.store.list({ needsRepair: true })) {
        if (this.stopped) return;
        if (ctx.delivering.has(record.id)) continue;
        let gone: string | undefined;
        if (ctx.claimHolds(record.claim, now)) {
          const claim = record.claim;
          if (!(await this.liveness.ownerGone(claim))) {
            // A living owner: look again when its claim runs out, or sooner in case it dies meanwhile.
            const check = this.liveness.applies(claim) ? now + LIVENESS_TTL_MS / 2 : claim.until;
            next = Math.min(next, claim.until, check);
            continue;
          }
          gone = claim.boot;
        }
        if (!this.runsChannelOf(record)) continue;
        await this.repair(record.id, gone);
      }
    } catch (error) {
      ctx.logger.error({ err: describeError(error) }, "repair sweep failed");
    } finally {
      this.schedule(next);
    }
  }

  private runsChannelOf(record: QuestionRecord): boolean {
    if (record.status === "pending") return this.ctx.channels.has(record.target?.channel ?? "");
    return record.deliveries.some(
      (d) =>
        d.kind === "prompt" &&
        d.finalizedAt === undefined &&
        d.abandonedAt === undefined &&
        this.ctx.channels.has(d.channel),
    );
  }

  /** Claims and repairs one question; `gone` is the start of a claim's owner found dead. */
  private async repair(id: string, gone?: string): Promise<void> {
    const { ctx } = this;
    const claimed = await ctx.transition(id, ctx.locale, (current) => {
      if (!needsRepair(current)) return NOT_OURS;
      if (ctx.claimHolds(current.claim) && (gone === undefined || current.claim.boot !== gone))
        return NOT_OURS;
      current.claim = ctx.claim();
      return current;
    });
    if (!claimed.ok) return;
    const record = claimed.record;
    ctx.logger.warn(
      { questionId: id, status: record.status },
      record.status === "pending" ? "repair: delivering a stored question" : "repair: editing to the summary",
    );
    ctx.background(record.status === "pending" ? deliver(ctx, record) : ctx.finalize(record));
  }
}
