/**
 * Handled once across instances (SPEC §9; README "Several instances"): the keys a Slack request is taken
 * under with core's `createOnce`, so that a retry or a copy is dropped by whichever instance it reaches.
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
