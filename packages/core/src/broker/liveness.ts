import { describeError } from "../model/errors.ts";
import type { RepairClaim } from "../model/types.ts";
import type { CancelTimer } from "../ports/clock.ts";
import type { BrokerContext } from "./context.ts";

/**
 * How long a broker's liveness lease lasts without renewal (renewed every third of it): a claim whose
 * owner died is taken over within about this long, not when the claim runs out.
 */
export const LIVENESS_TTL_MS = 6_000;

/** The liveness lease of one start of one broker; its holder is that start's `bootId`. */
export function livenessLease(by: string, boot: string): string {
  return `ask-user:broker:${by}:${boot}`;
}

/**
 * Claims that die with their owner: while a broker runs, it holds a lease of its own in the store
 * (`ask-user:broker:<instanceId>:<bootId>`, {@link LIVENESS_TTL_MS}); a claim whose owner's lease is gone
 * (the process died, or stopped) counts as dead, so any instance repairs that question at once. Used
 * with stores that can tell who holds a lease (`leaseHolder`; every `QuestionStore` can).
 */
export class Liveness {
  /** Settles once the lease was first taken (or that failed): claims are made only after it. */
  readonly first: Promise<void>;
  private cancel: CancelTimer | undefined;
  private turn: Promise<void> = Promise.resolve();
  private stopped = false;
  private warned = false;

  constructor(private readonly ctx: BrokerContext) {
    this.first = this.renew();
    this.turn = this.first;
  }

  private get name(): string {
    return livenessLease(this.ctx.instanceId, this.ctx.bootId);
  }

  private async renew(): Promise<void> {
    const { ctx } = this;
    try {
      await ctx.store.acquireLease(this.name, ctx.bootId, LIVENESS_TTL_MS);
      this.warned = false;
    } catch (error) {
      if (!this.warned)
        ctx.logger.warn({ err: describeError(error) }, "could not renew this broker's liveness lease");
      this.warned = true;
    }
    if (this.stopped) return;
    this.cancel = ctx.clock.setTimer(() => {
      this.turn = this.renew();
    }, LIVENESS_TTL_MS / 3);
  }

  /** True when `claim` belongs to another broker start whose liveness lease is gone. */
  async ownerGone(claim: RepairClaim): Promise<boolean> {
    const { ctx } = this;
    if (claim.boot === undefined || claim.boot === ctx.bootId || !ctx.store.leaseHolder) return false;
    try {
      return (await ctx.store.leaseHolder(livenessLease(claim.by, claim.boot))) !== claim.boot;
    } catch (error) {
      ctx.logger.warn({ err: describeError(error) }, "could not read a liveness lease");
      return false; // when in doubt, the claim's own time decides
    }
  }

  /** Whether claims can die with their owner here (the store can tell who holds a lease). */
  applies(claim: RepairClaim): boolean {
    return claim.boot !== undefined && claim.boot !== this.ctx.bootId && !!this.ctx.store.leaseHolder;
  }

  /** Stops renewing and gives the lease up: this start's remaining claims die with it. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.cancel?.();
    await this.turn;
    this.cancel?.();
    await this.ctx.store.releaseLease(this.name, this.ctx.bootId).catch(() => undefined);
  }
}
