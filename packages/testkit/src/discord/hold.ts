/** Holding Discord REST calls open (by route), on the fakes' shared holds (see `../hold.ts`). */
import * as shared from "../hold.ts";
import { notify, type State } from "./state.ts";
import type { ApiCall } from "./types.ts";

/** Calls of one route that `FakeDiscord.hold` keeps open (in `calls` too, with status 0). */
export type HeldCalls = shared.HeldCalls<ApiCall>;
export type Holds = shared.Holds<ApiCall>;

/** Creates the holds over `state` (changes signal its waiters). */
export function createHolds(state: State): Holds {
  return shared.createHolds<ApiCall>({
    platform: "Discord",
    nameOf: (call) => call.route,
    parked: (call) => state.calls.push(call),
    changed: () => notify(state),
  });
}
