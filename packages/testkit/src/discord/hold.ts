/**
 * Holding REST calls open: Discord hanging mid-request, to test an app that dies (kill -9) while a
 * message or an edit is on its way. A held call waits before the fake acts on it, until the handle
 * releases it (carried out) or drops it (cut).
 */
import type { ServerResponse } from "node:http";
import { notify, type State } from "./state.ts";
import type { ApiCall } from "./types.ts";

/** Calls of one route that `FakeDiscord.hold` keeps open. */
export interface HeldCalls {
  /** The calls held so far, in arrival order (live; they are in `calls` too, with status 0). */
  readonly calls: readonly ApiCall[];
  /**
   * Stops holding: every held call is carried out and answered — also when its caller has gone away,
   * as Discord finishes work it received (the message then exists, and nobody knows its id).
   */
  release(): void;
  /**
   * Stops holding: every held call is dropped unanswered and its connection cut (the caller sees a
   * network failure), as if the request never reached Discord. Nothing changes in any channel.
   */
  drop(): void;
}

interface Parked {
  run(): void;
  res: ServerResponse;
}

interface Hold {
  calls: ApiCall[];
  parked: Parked[];
}

/** The holds of one fake, by route name. */
export interface Holds {
  /** Holds every later call of `route` (throws if it is held already). */
  hold(route: string): HeldCalls;
  /** Parks `call` when its route is held (true), to `run` it on release; false: run it now. */
  park(call: ApiCall, res: ServerResponse, run: () => void): boolean;
  /** Drops everything held (the fake closes). */
  dropAll(): void;
}

/** Creates the holds over `state` (changes signal its waiters). */
export function createHolds(state: State): Holds {
  const holds = new Map<string, Hold>();
  const end = (route: string, hold: Hold, carryOut: boolean) => {
    if (holds.get(route) === hold) holds.delete(route);
    for (const { run, res } of hold.parked.splice(0)) {
      if (carryOut) run();
      else res.destroy(); // no answer, the connection is cut
    }
    notify(state);
  };
  return {
    hold(route) {
      if (holds.has(route)) throw new Error(`fake Discord: ${route} is already held`);
      const hold: Hold = { calls: [], parked: [] };
      holds.set(route, hold);
      return {
        calls: hold.calls,
        release: () => end(route, hold, true),
        drop: () => end(route, hold, false),
      };
    },
    park(call, res, run) {
      const hold = holds.get(call.route);
      if (!hold) return false;
      hold.calls.push(call);
      hold.parked.push({ run, res });
      state.calls.push(call);
      notify(state);
      return true;
    },
    dropAll() {
      for (const [route, hold] of [...holds]) end(route, hold, false);
    },
  };
}
