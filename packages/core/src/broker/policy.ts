import type { Actor, QuestionRecord, QuestionStatus } from "../model/types.ts";
import { formatTime, type Messages, messagesFor } from "../prompt/i18n.ts";

/** Why an attempt to answer, skip or cancel was refused. */
export type RefusalReason =
  | "not_allowed"
  | "answered"
  | "skipped"
  | "expired"
  | "cancelled"
  | "undeliverable"
  | "unknown"
  | "invalid";

/** A refusal with its reason and the sentence to show the person (in their locale). */
export interface Refusal {
  reason: RefusalReason;
  message: string;
}

/** Someone on a channel trying to answer. */
export interface Answerer {
  channel: string;
  conversation: string;
  userId: string;
}

/**
 * Whether `who` may answer `record` (SPEC §5): the creator only — or, when no creator was given, anyone
 * in a one-to-one chat with the bot (`direct`; nobody by chat in a group, channel or thread) — any member
 * of the target conversation, or a list of user ids. Returns the refusal, or `undefined` when allowed.
 */
export function checkAnswerer(
  record: QuestionRecord,
  who: Answerer,
  locale: string,
  direct = false,
): Refusal | undefined {
  const m = messagesFor(locale);
  const target = record.target;
  const notAllowed: Refusal = { reason: "not_allowed", message: m.refusedNotAllowed };
  if (!target || target.channel !== who.channel) return notAllowed;
  const policy = record.answerers;
  if (policy.kind === "users") return policy.userIds.includes(who.userId) ? undefined : notAllowed;
  if (policy.kind === "creator" && record.creator) {
    const creator = record.creator;
    if (creator.channel === who.channel && creator.userId === who.userId) return undefined;
    const name = creator.displayName?.trim();
    return { reason: "not_allowed", message: name ? m.refusedForOther(name) : m.refusedForSomeoneElse };
  }
  if (target.conversation !== who.conversation) return notAllowed;
  if (policy.kind === "creator" && !direct) return { reason: "not_allowed", message: m.refusedNoCreator };
  return undefined;
}

/** The operator surfaces: authenticated by the gateway (its token), not by SPEC §5. */
export const OPERATOR_SURFACES: ReadonlySet<string> = new Set(["web", "http", "cli", "mcp"]);

/**
 * How people read who acted (SPEC §5, §8): a chat user by the name their platform gave (never a raw
 * id); someone on an operator surface always with that surface (`alice via HTTP API`), so a name typed
 * into a request body can't pass for a chat user.
 */
export function actorName(actor: Actor, locale: string): string {
  const m = messagesFor(locale);
  const name = actor.displayName?.trim();
  if (OPERATOR_SURFACES.has(actor.channel)) {
    const surface = m.surfaces[actor.channel as keyof Messages["surfaces"]];
    return m.via(
      name || (actor.userId.trim() && actor.userId !== "operator" ? actor.userId : m.anOperator),
      surface,
    );
  }
  return name || m.someone;
}

/** The refusal for an attempt on a record that is no longer pending (`undefined` while pending). */
export function refusalForStatus(record: QuestionRecord, locale: string): Refusal | undefined {
  const m = messagesFor(locale);
  const status: QuestionStatus = record.status;
  switch (status) {
    case "pending":
      return undefined;
    case "answered": {
      const who = record.resolvedBy && actorName(record.resolvedBy, locale);
      return { reason: "answered", message: who ? m.refusedAnsweredBy(who) : m.refusedAnswered };
    }
    case "skipped":
      return { reason: "skipped", message: m.refusedSkipped };
    case "expired":
      return { reason: "expired", message: m.refusedExpired(formatTime(record.expiresAt, locale)) };
    case "cancelled":
      return { reason: "cancelled", message: m.refusedCancelled };
    case "undeliverable":
      return { reason: "undeliverable", message: m.refusedUndeliverable };
  }
}
