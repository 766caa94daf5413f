/** What the inbound handlers (messages, taps, modal submissions) share: the outbound side and the broker. */
import type { AskUserBroker, InboundOutcome, Once } from "@ask-user/core/channel";
import type { Outbound } from "./outbound.ts";

export interface InboundDeps extends Outbound {
  broker: AskUserBroker;
  /** "Handled once" among instances, by the keys of `ingress/dedupe.ts`. */
  once: Once;
}

/** An outcome told to the person privately: not one the message itself shows (an answer, a skip, a choice). */
export function isRefusal(outcome: InboundOutcome): outcome is Exclude<InboundOutcome, { kind: "ignored" }> {
  return !["ignored", "answered", "skipped", "staged"].includes(outcome.kind);
}
