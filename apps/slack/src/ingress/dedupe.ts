/**
 * Handled once across instances (SPEC §9): the keys under which a Slack request is recorded in the
 * store's shared {@link Coordination}, so that a second delivery of it — Slack's retry of an event, a
 * proxy's retry of an interaction — is dropped by whichever instance it reaches.
 */
import { type AskUserLogger, type Coordination, describeError } from "@ask-user/core/channel";
import type { BlockAction, EnvelopedEvent, ViewSubmitAction } from "@slack/bolt";
import { DEDUPE_TTL_MS } from "../limits.ts";

/** An Events API request: `slack:event:<event_id>` (Slack keeps the id when it redelivers). */
export function eventKey(body: EnvelopedEvent): string | undefined {
  return body.event_id ? `slack:event:${body.event_id}` : undefined;
}

/**
 * A tap, by the `trigger_id` Slack issues afresh for every interaction (a copy of the request carries
 * the same one): `slack:action:<trigger_id>:<action_ts>`. `undefined` (no dedupe) without one.
 */
export function tapKey(body: BlockAction): string | undefined {
  return body.trigger_id ? `slack:action:${body.trigger_id}:${body.actions[0]?.action_ts ?? ""}` : undefined;
}

/**
 * A modal submission: `slack:view:<view id>:<trigger_id>`. Not the view's id and hash alone: they stay
 * the same when a person submits the same modal again after a field error.
 */
export function submissionKey(body: ViewSubmitAction): string | undefined {
  return body.trigger_id && body.view.id ? `slack:view:${body.view.id}:${body.trigger_id}` : undefined;
}

/**
 * True the first time any instance sees `key`. When the store cannot say (it is down), the request is
 * handled: a rare duplicate notice is better than an answer lost.
 */
export async function firstTime(
  coordination: Coordination,
  key: string,
  logger: AskUserLogger,
  channel: string,
): Promise<boolean> {
  try {
    return await coordination.firstSeen(key, DEDUPE_TTL_MS);
  } catch (error) {
    logger.warn(
      { channel, key, err: describeError(error) },
      "could not check whether a Slack request was handled already",
    );
    return true;
  }
}
