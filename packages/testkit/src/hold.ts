/**
 * Holding API calls open: a platform hanging mid-request, to test an app that dies (kill -9) while a
 * message or an edit is on its way. A held call waits before the fake acts on it, until the handle
 * releases it (carried out) or drops it (cut). Shared by the Discord and Slack fakes.
 */
import type { ServerResponse } from "node:http";

/** Calls of one route or method that a fake's `hold` keeps open. */
export interface HeldCalls<Call> {
  /** The calls held so far, in arrival order (live; they are in the fake's `calls` too). */
  readonly calls: readonly Call[];
  /**
   * Stops holding: every held call is carried out and answered — also when its caller has gone away,
   * as the platform finishes work it received (the message then exists, and nobody knows its id).
   */
  release(): void;
  /**
   * Stops holding: every held call is dropped unanswered and its connection cut (the caller sees a
   * network failure), as if the request never reached the platform. Nothing changes anywhere.
   */
  drop(): void;
}

/** The holds of one fake, by route or method name. */
export interface Holds<Call> {
  /** Holds every later call named `name` (throws if it is held already). */
  hold(name: string): HeldCalls<Call>;
  /** Parks `call` when its name is held (true), to `run` it on release; false: run it now. */
  park(call: Call, res: ServerResponse, run: () => void): boolean;
  /** Drops everything held (the fake closes). */
  dropAll(): void;
}

interface Hold<Call> {
  calls: Call[];
  parked: Array<{ run(): void; res: ServerResponse }>;
}

/** What a fake tells its holds: its name, how a call is named, and what to do on a change. */
export interface HoldOptions<Call> {
  platform: string;
  nameOf(call: Call): string;
  /** A call was parked (e.g. record it with the fake's calls). */
  parked?(call: Call): void;
  /** Something changed: wake the fake's waiters. */
  changed(): void;
}

/** Creates the holds of one fake. */
export function createHolds<Call>(options: HoldOptions<Call>): Holds<Call> {
  const holds = new Map<string, Hold<Call>>();
  const end = (name: string, hold: Hold<Call>, carryOut: boolean) => {
    if (holds.get(name) === hold) holds.delete(name);
    for (const { run, res } of hold.parked.splice(0)) {
      if (carryOut) run();
      else res.destroy(); // no answer, the connection is cut
    }
    options.changed();
  };
  return {
    hold(name) {
      if (holds.has(name)) throw new Error(`fake ${options.platform}: ${name} is already held`);
      const hold: Hold<Call> = { calls: [], parked: [] };
      holds.set(name, hold);
      return {
        calls: hold.calls,
        release: () => end(name, hold, true),
        drop: () => end(name, hold, false),
      };
    },
    park(call, res, run) {
      const hold = holds.get(options.nameOf(call));
      if (!hold) return false;
      hold.calls.push(call);
      hold.parked.push({ run, res });
      options.parked?.(call);
      options.changed();
      return true;
    },
    dropAll() {
      for (const [name, hold] of [...holds]) end(name, hold, false);
    },
  };
}
