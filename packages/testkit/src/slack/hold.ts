/**
 * Holding Web API calls open: Slack hanging mid-request, to test an app that dies (kill -9) while a
 * post or an edit is on its way. A held call waits before the fake acts on it, until the handle
 * releases it (carried out) or drops it (cut).
 */
import type { ServerResponse } from "node:http";
import { notify, type State } from "./state.ts";
import type { ApiCall } from "./types.ts";

/** Calls of one method that `FakeSlack.hold` keeps open. */
export interface HeldCalls {
  /** The calls held so far, in arrival order (live; they are in `calls` too). */
  readonly calls: readonly ApiCall[];
  /**
   * Stops holding: every held call is carried out and answered — also when its caller has gone away,
   * as Slack finishes work it received (the message then exists, and nobody knows its `ts`).
   */
  release(): void;
  /**
   * Stops holding: every held call is dropped unanswered and its connection cut (the caller sees a
   * network failure), as if the request never reached Slack. Nothing changes in any conversation.
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

/** The holds of one fake, by method name. */
export interface Holds {
  /** Holds every later call of `method` (throws if it is held already). */
  hold(method: string): HeldCalls;
  /** Parks `call` when its method is held (true), to `run` it on release; false: run it now. */
  park(call: ApiCall, res: ServerResponse, run: () => void): boolean;
  /** Drops everything held (the fake closes). */
  dropAll(): void;
}

/** Creates the holds over `state` (changes signal its waiters). */
export function createHolds(state: State): Holds {
  const holds = new Map<string, Hold>();
  const end = (method: string, hold: Hold, carryOut: boolean) => {
    if (holds.get(method) === hold) holds.delete(method);
    for (const { run, res } of hold.parked.splice(0)) {
      if (carryOut) run();
      else res.destroy(); // no answer, the connection is cut
    }
    notify(state);
  };
  return {
    hold(method) {
      if (holds.has(method)) throw new Error(`fake Slack: ${method} is already held`);
      const hold: Hold = { calls: [], parked: [] };
      holds.set(method, hold);
      return {
        calls: hold.calls,
        release: () => end(method, hold, true),
        drop: () => end(method, hold, false),
      };
    },
    park(call, res, run) {
      const hold = holds.get(call.method);
      if (!hold) return false;
      hold.calls.push(call);
      hold.parked.push({ run, res });
      notify(state);
      return true;
    },
    dropAll() {
      for (const [method, hold] of [...holds]) end(method, hold, false);
    },
  };
}
