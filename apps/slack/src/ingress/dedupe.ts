/**
 * Handled once across instances (SPEC §9): the keys under which a Slack request is recorded with core's
 * `createOnce` (`take`, in the store's shared coordination), so that a second delivery of it — Slack's
 * retry of an event, a proxy's retry of an interaction — is dropped by whichever instance it reaches.
 * When the store cannot say, the request is handled: a rare duplicate notice is better than a lost answer.
 */
import type { BlockAction, EnvelopedEvent, ViewSubmitAction } from "@slack/bolt";

/** An Events API request (Slack keeps the `event_id` when it redelivers). */
export function eventKey(body: EnvelopedEvent): string | undefined {
  return body.event_id ? `slack:event:${body.event_id}` : undefined;
}

/** A tap, by the `trigger_id` Slack issues afresh for every interaction (a copy carries the same one). */
export function tapKey(body: BlockAction): string | undefined {
  return body.trigger_id ? `slack:action:${body.trigger_id}:${body.actions[0]?.action_ts ?? ""}` : undefined;
}

/** A modal submission; not by the view's id and hash alone: they stay when a person submits again after a field error. */
export function submissionKey(body: ViewSubmitAction): string | undefined {
  return body.trigger_id && body.view.id ? `slack:view:${body.view.id}:${body.trigger_id}` : undefined;
}
