/** Holding Slack Web API calls open (by method), on the fakes' shared holds (see `../hold.ts`). */
import * as shared from "../hold.ts";
import { notify, type State } from "./state.ts";
import type { ApiCall } from "./types.ts";

/** Calls of one method that `FakeSlack.hold` keeps open (in `calls` too). */
export type HeldCalls = shared.HeldCalls<ApiCall>;
export type Holds = shared.Holds<ApiCall>;

/** Creates the holds over `state` (changes signal its waiters). */
export function createHolds(state: State): Holds {
  return shared.createHolds<ApiCall>({
    platform: "Slack",
    nameOf: (call) => call.method,
    changed: () => notify(state),
  });
}
