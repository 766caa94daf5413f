import { describeError } from "../model/errors.ts";
import { type Clock, systemClock } from "./clock.ts";
import type { AskUserLogger } from "./logger.ts";

/**
 * Coordination between instances that share a store (SPEC §9): "handled once" keys for platform updates
 * and leases for connections a platform allows only once per token. Every store implements it; a lone
 * process can use {@link createMemoryCoordination}.
 */
export interface Coordination {
  /**
   * True the first time `key` is seen within `ttlMs` by any instance sharing the store; false for a
   * repeat (a redelivered update, or one every instance received).
   */
  firstSeen(key: string, ttlMs: number): Promise<boolean>;
  /**
   * Takes lease `name` for `holder` until now + `ttlMs` when it is free or expired, or renews it when
   * `holder` already has it. True when `holder` holds it afterwards.
   */
  acquireLease(name: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Gives lease `name` up when `holder` has it (nothing happens otherwise). */
  releaseLease(name: string, holder: string): Promise<void>;
  /**
   * Who holds lease `name` now, or `undefined` when it is free or ran out. Every `QuestionStore` has it
   * (the broker reads its siblings' liveness leases with it); optional for other coordinations.
   */
  leaseHolder?(name: string): Promise<string | undefined>;
}

/** Keys a memory coordination remembers at most: beyond, the oldest is forgotten (a very old redelivery runs again). */
export const MEMORY_SEEN_MAX = 100_000;

/**
 * Coordination inside one process (tests, a single instance without a shared store). Marks are kept in
 * the order they were made; each call forgets the expired ones at the front and, past
 * {@link MEMORY_SEEN_MAX}, the oldest.
 *
 * @example
 * const coordination = createMemoryCoordination();
 * await coordination.firstSeen("telegram:update:42", 86_400_000); // true, then false
 */
export function createMemoryCoordination(
  clock: Clock = systemClock,
): Required<Coordination> & { clear(): void } {
  const seen = new Map<string, number>();
  const leases = new Map<string, { holder: string; until: number }>();
  const sweep = (now: number) => {
    for (const [key, until] of seen) {
      if (until > now && seen.size < MEMORY_SEEN_MAX) return;
      seen.delete(key);
    }
  };
  return {
    async firstSeen(key, ttlMs) {
      const now = clock.now();
      sweep(now);
      const until = seen.get(key);
      if (until !== undefined && until > now) return false;
      seen.delete(key); // a mark made again goes to the back
      seen.set(key, now + ttlMs);
      return true;
    },
    async acquireLease(name, holder, ttlMs) {
      const now = clock.now();
      const lease = leases.get(name);
      if (lease && lease.holder !== holder && lease.until > now) return false;
      leases.set(name, { holder, until: now + ttlMs });
      return true;
    },
    async releaseLease(name, holder) {
      if (leases.get(name)?.holder === holder) leases.delete(name);
    },
    async leaseHolder(name) {
      const lease = leases.get(name);
      return lease && lease.until > clock.now() ? lease.holder : undefined;
    },
    clear() {
      seen.clear();
      leases.clear();
    },
  };
}

/** Options of {@link keepLease}. */
export interface KeepLeaseOptions {
  coordination: Coordination;
  /** The lease, e.g. `telegram:<bot id>:polling`. */
  name: string;
  /** This instance. */
  holder: string;
  /** How long a lease lasts without renewal (default 6 s): a dead holder is replaced within about this. */
  ttlMs?: number;
  /** Called when this instance got the lease: start the connection. */
  onAcquired(): Promise<void> | void;
  /** Called when it lost the lease (or stops): stop the connection. */
  onLost(): Promise<void> | void;
  logger?: AskUserLogger;
  clock?: Clock;
}

/** A running {@link keepLease}. */
export interface LeaseKeeper {
  /** True while this instance holds the lease. */
  readonly held: boolean;
  /** Stops trying; if it held the lease, calls `onLost` and then releases the lease. */
  stop(): Promise<void>;
}

const DEFAULT_LEASE_TTL_MS = 6_000;

/**
 * Holds a lease for as long as this instance lives: tries every third of the lease time, starts the
 * connection when it gets the lease, renews it, and stops the connection when a renewal fails (another
 * instance then takes over once the lease runs out). Used for Telegram long polling and the Discord
 * gateway connection, which the platforms allow once per token.
 *
 * @example
 * const keeper = keepLease({ coordination: store, name: "telegram:123:polling", holder: instanceId,
 *   onAcquired: () => startPolling(), onLost: () => stopPolling() });
 */
export function keepLease(options: KeepLeaseOptions): LeaseKeeper {
  const clock = options.clock ?? systemClock;
  const ttlMs = options.ttlMs ?? DEFAULT_LEASE_TTL_MS;
  let held = false;
  let stopped = false;
  let cancel: (() => void) | undefined;
  let turn: Promise<void> = Promise.resolve();

  const change = async (now: boolean) => {
    if (now === held) return;
    held = now;
    try {
      await (now ? options.onAcquired() : options.onLost());
    } catch (error) {
      options.logger?.error({ lease: options.name, err: describeError(error) }, "lease hand-over failed");
    }
  };

  const tick = async () => {
    let got = false;
    try {
      got = await options.coordination.acquireLease(options.name, options.holder, ttlMs);
    } catch (error) {
      options.logger?.warn({ lease: options.name, err: describeError(error) }, "could not renew a lease");
    }
    if (stopped) return;
    await change(got);
  };

  const loop = () => {
    if (stopped) return;
    turn = tick().finally(() => {
      if (!stopped) cancel = clock.setTimer(loop, Math.max(100, Math.floor(ttlMs / 3)));
    });
  };
  loop();

  return {
    get held() {
      return held;
    },
    async stop() {
      stopped = true;
      cancel?.();
      await turn;
      if (held) {
        // Close the connection first, then free the lease: the next holder never overlaps with it.
        await change(false);
        await options.coordination.releaseLease(options.name, options.holder).catch(() => undefined);
      }
    },
  };
}
