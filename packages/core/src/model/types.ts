import type { AskUserResult } from "../schema/result-schema.ts";
import type { Prompt } from "../schema/schema.ts";

export type { AskUserResult } from "../schema/result-schema.ts";

/** Where a question is delivered: a channel (by name, e.g. "telegram") and a conversation id there. */
export interface Target {
  channel: string;
  conversation: string;
}

/** A platform user, e.g. the creator of a run or the person who tapped a button. */
export interface UserRef {
  channel: string;
  userId: string;
  /** How to name them in summaries and refusals, e.g. "@alice". */
  displayName?: string;
}

/**
 * Who resolved a question and through which surface: a channel name ("telegram") or an operator
 * surface ("web", "http", "cli", "mcp").
 */
export interface Actor {
  /** The surface: a channel name or an operator surface. */
  channel: string;
  userId: string;
  displayName?: string;
}

/**
 * Who may answer (SPEC §5): only the creator (default; anyone in the conversation when there is no
 * creator), any member of the target conversation, or a list of user ids of the target channel.
 */
export type AnswererPolicy =
  | { kind: "creator" }
  | { kind: "conversation" }
  | { kind: "users"; userIds: string[] };

export type QuestionStatus = "pending" | "answered" | "skipped" | "expired" | "cancelled" | "undeliverable";

/** The statuses a question can end in. */
export const TERMINAL_STATUSES = ["answered", "skipped", "expired", "cancelled", "undeliverable"] as const;

/** Answers keyed by question id; values are canonical labels in option order, then free text. */
export type Answers = Record<string, string[]>;

/** A message a channel sent for a question: the prompt itself, or a follow-up replies may point at. */
export interface Delivery {
  channel: string;
  conversation: string;
  messageId: string;
  kind: "prompt" | "notice";
  /** Set once the message was edited to the final summary. */
  finalizedAt?: number;
  /** Failed attempts to edit it to the summary (each retry waits longer). */
  attempts?: number;
  /** Set when the edit was given up (the platform kept failing for a day). */
  abandonedAt?: number;
}

/**
 * Which instance is delivering a question or editing its messages, and until when: others leave it
 * alone until `until` (epoch ms) and then repair it. Also the not-before time of a retry.
 */
export interface RepairClaim {
  /** The claiming broker's `instanceId`. */
  by: string;
  until: number;
  /**
   * The claiming broker's start (random per `createAskUser`). A broker with the same `instanceId` but
   * another start is a restart of that instance: the claim's owner is gone, and the claim with it.
   */
  boot?: string;
}

/** A stored question (SPEC §4). `version` grows by one with every write (compare-and-set). */
export interface QuestionRecord {
  id: string;
  version: number;
  runId?: string;
  prompt: Prompt;
  target?: Target;
  creator?: UserRef;
  answerers: AnswererPolicy;
  /** Locale the prompt was delivered in. */
  locale: string;
  createdAt: number;
  expiresAt: number;
  status: QuestionStatus;
  /** Final answers (status `answered`). */
  answers?: Answers;
  /** Partial answers of a multi-question text reply (the text stepper). */
  draft?: Answers;
  /** Random action token of each question, in question order (the button payload refers to it). */
  tokens: string[];
  /** A user who tapped Other… and whose next text reply answers the question. */
  awaitingText?: UserRef & { questionIndex: number };
  resolvedBy?: Actor;
  resolvedAt?: number;
  /** Why delivery failed (status `undeliverable`). */
  error?: string;
  deliveries: Delivery[];
  /** Set while an instance delivers the prompt or edits it to the summary (see {@link needsRepair}). */
  claim?: RepairClaim;
}

/** Broker events for surfaces such as the web panel. */
export type AskUserEvent =
  | { type: "question.requested"; record: QuestionRecord }
  | { type: "question.updated"; record: QuestionRecord }
  | { type: "question.resolved"; record: QuestionRecord };

/** True when the prompt message still has to be edited to the summary. */
export function awaitsSummary(record: QuestionRecord): boolean {
  return (
    isTerminal(record.status) &&
    record.deliveries.some(
      (d) => d.kind === "prompt" && d.finalizedAt === undefined && d.abandonedAt === undefined,
    )
  );
}

/**
 * True when a question is unfinished business for the channels (SPEC §4, repair): pending with a target
 * but no delivered prompt (stored, then the process died), or ended with a prompt message not yet edited
 * to its summary. Stores index it (`list({ needsRepair: true })`), so repair never reads all history.
 */
export function needsRepair(record: QuestionRecord): boolean {
  if (record.status === "pending") {
    return record.target !== undefined && !record.deliveries.some((d) => d.kind === "prompt");
  }
  return awaitsSummary(record);
}

/** True when the status is final. */
export function isTerminal(status: QuestionStatus): boolean {
  return status !== "pending";
}

/** The agent-facing result of a resolved record (`undefined` while it is pending). */
export function resultOf(record: QuestionRecord): AskUserResult | undefined {
  switch (record.status) {
    case "pending":
      return undefined;
    case "answered":
      return { status: "answered", answers: { answers: record.answers ?? {} } };
    default:
      return { status: "no_answer", reason: record.status };
  }
}
