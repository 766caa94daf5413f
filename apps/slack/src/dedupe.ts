/**
 * Handled once across instances (SPEC §9): the keys under which a Slack request is recorded in the
 * store's shared {@link Coordination}, so that a second delivery of it — Slack's retry of an event, a
 * proxy's retry of an interaction — is dropped by whichever instance it reaches.
 */
import type { AskUserLogger, Coordination } from "@ask-user/core";
import { DEDUPE_TTL_MS } from "./limits.ts";

type Json = Record<string, unknown>;

const obj = (value: unknown): Json => (typeof value === "object" && value !== null ? (value as Json) : {});
const str = (value: unknown): string | undefined =>
  typeof value === "string" && value !== "" ? value : undefined;

/** An Events API request: `slack:event:<event_id>` (Slack keeps the id when it redelivers). */
export function eventKey(body: Json): string | undefined {
  const id = body.type === "event_callback" ? str(body.event_id) : undefined;
  return id === undefined ? undefined : `slack:event:${id}`;
}

/**
 * An interaction, by the `trigger_id` Slack issues afresh for every tap and every submission (a copy
 * of the request carries the same one): a tap `slack:action:<trigger_id>:<action_ts>`, a modal
 * submission `slack:view:<view id>:<trigger_id>`. Not the view's id and hash alone: they stay the same
 * when a person submits the same modal again after a field error. `undefined` (no dedupe) without one.
 */
export function interactionKey(body: Json): string | undefined {
  const trigger = str(body.trigger_id);
  if (trigger === undefined) return undefined;
  if (body.type === "block_actions") {
    const action = obj(Array.isArray(body.actions) ? body.actions[0] : undefined);
    return `slack:action:${trigger}:${str(action.action_ts) ?? ""}`;
  }
  if (body.type === "view_submission") {
    const view = str(obj(body.view).id);
    return view === undefined ? undefined : `slack:view:${view}:${trigger}`;
  }
  return undefined;
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
    const err = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    logger.warn({ channel, key, err }, "could not check whether a Slack request was handled already");
    return true;
  }
}
