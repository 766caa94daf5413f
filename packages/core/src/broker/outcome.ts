/** A compare-and-set transition as the broker's operator calls answer it (`answer`, `skip`, `cancel`, `stage`). */
import type { Transition } from "./context.ts";
import type { TransitionOutcome } from "./types.ts";

/** The outcome of a transition: the record it wrote, or the refusal with its reason and the record. */
export function outcomeOf(result: Transition): TransitionOutcome {
  if (result.ok) return { ok: true, record: result.record };
  const out: TransitionOutcome = {
    ok: false,
    reason: result.refusal.reason,
    message: result.refusal.message,
  };
  if (result.record) out.record = result.record;
  return out;
}
