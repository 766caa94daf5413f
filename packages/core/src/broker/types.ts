/** The broker's public types: its options, per-question options, outcomes and the broker itself. */

import type { InputIssue } from "../model/errors.ts";
import type { Actor, AskUserEvent, AskUserResult, QuestionRecord, Target, UserRef } from "../model/types.ts";
import type { Channel } from "../ports/channel.ts";
import type { Clock } from "../ports/clock.ts";
import type { AskUserLogger } from "../ports/logger.ts";
import type { ListPage, QuestionFilter, QuestionStore } from "../ports/store.ts";
import type { ActionEvent, InboundOutcome, MessageRef, ReplyEvent } from "./inbound.ts";

/** Options of `createAskUser`. */
export interface AskUserOptions {
  store: QuestionStore;
  channels: Channel[];
  clock?: Clock;
  /** Default locale of prompts and of replies without a user locale (`en` or `de`). */
  locale?: string;
  /** Who may answer by default (SPEC §5): `creator` (default), `conversation`, or a list of user ids. */
  answerers?: "creator" | "conversation" | { userIds: string[] };
  logger?: AskUserLogger;
  /**
   * This instance's name in repair claims (default: random per start). It must be unique among the
   * brokers running on one store at a time; a stable one lets a restarted instance finish its own
   * half-done deliveries and summary edits at once: claims made under the same id by an earlier start
   * count as dead.
   */
  instanceId?: string;
  /**
   * How long a question this broker delivers or edits is left alone by other instances before they
   * repair it (default 30 s).
   */
  claimMs?: number;
  /** How often the repair sweep looks for undelivered prompts and unedited summaries (default 30 s). */
  repairIntervalMs?: number;
}

/** Per-question options of `ask` / `create`. */
export interface AskOptions {
  /** Where to deliver; without it the question lives on the operator surfaces only. */
  target?: Target;
  /** The user whose request started the run. */
  creator?: UserRef;
  runId?: string;
  /** Aborting cancels the question. */
  signal?: AbortSignal;
  answerers?: AskUserOptions["answerers"];
  locale?: string;
}

/** The outcome of `answer`, `skip` and `cancel`: the record, or why it was refused. */
export type TransitionOutcome =
  | { ok: true; record: QuestionRecord }
  | {
      ok: false;
      reason: string;
      message: string;
      record?: QuestionRecord;
      issues?: InputIssue[];
    };

/** What `stage` puts into the shared draft: one question's values (an empty list clears them). */
export interface StageRequest {
  /** The question's id (`deploy_target`). */
  question: string;
  /**
   * Its values as `answer` takes them: option labels (any case, made canonical), or one answer of
   * one's own (`other: …` marks it as such); one string is a one-value list.
   */
  values: unknown;
}

/**
 * Who stages: an operator surface (`web`, `http`, `cli`, `mcp`; authenticated by the gateway), or a
 * chat user with the conversation they act in, checked like a tap (SPEC §5).
 */
export type StageActor = Actor & { conversation?: string };

/** The broker: asks questions, takes answers from every surface, and keeps the lifecycle (SPEC §4). */
export interface AskUserBroker {
  /**
   * Normalises, stores, delivers and waits; resolves with the agent's result. Throws on bad input, and
   * `AskUserError("closed")` when the broker closes before the question ends.
   */
  ask(input: unknown, options?: AskOptions): Promise<AskUserResult>;
  /**
   * Normalises, stores and delivers; returns the record at once (pending, or undeliverable). Aborting
   * `signal` while the prompt is being delivered cancels the question (it is already stored then).
   */
  create(input: unknown, options?: AskOptions): Promise<QuestionRecord>;
  /**
   * Waits for a question to end; aborting the signal cancels it. Rejects with `AskUserError("closed")`
   * when the broker closes first (the question stays pending in the store).
   */
  wait(id: string, options?: { signal?: AbortSignal }): Promise<AskUserResult>;
  handleReply(event: ReplyEvent): Promise<InboundOutcome>;
  handleAction(event: ActionEvent): Promise<InboundOutcome>;
  /**
   * Records a message a channel sent for a question on its own (Telegram's Other… force-reply prompt, a
   * confirmation), so that a reply to it routes to that question (SPEC §7 rule 1) — and, once the
   * question has ended, is told why instead of going to another one. Unknown ids are ignored.
   */
  rememberMessage(questionId: string, message: MessageRef): Promise<void>;
  /** Answers from an operator surface (web, HTTP, MCP, CLI): checked against the prompt. */
  answer(id: string, answers: unknown, actor: Actor): Promise<TransitionOutcome>;
  /**
   * Stages one question's values in the question's shared draft (SPEC §6), as a form control does:
   * they replace that question's values (an empty list removes them), the other questions keep theirs,
   * and the question is never answered by it (Send is `answer`). Refused like a tap: `not_allowed`
   * (a chat user who may not answer), `answered`/`skipped`/`expired`/… (it ended; a question past its
   * deadline is expired on the spot), `unknown`; `invalid` with issues at `question` / `values[i]`.
   * Chat prompts showing the draft are re-rendered.
   *
   * @example
   * await broker.stage(id, { question: "environment", values: ["Production"] }, { channel: "web", userId: "operator" });
   */
  stage(id: string, request: StageRequest, actor: StageActor): Promise<TransitionOutcome>;
  skip(id: string, actor: Actor): Promise<TransitionOutcome>;
  cancel(id: string, actor?: Actor): Promise<TransitionOutcome>;
  get(id: string): Promise<QuestionRecord | undefined>;
  /** Records oldest first; with `page`, one page of them (see `QuestionStore.list`). */
  list(filter?: QuestionFilter, page?: ListPage): Promise<QuestionRecord[]>;
  /** Listens to `question.requested` / `question.updated` / `question.resolved`. */
  subscribe(listener: (event: AskUserEvent) => void): () => void;
  /** Resolves once start-up recovery (re-arming deadlines, expiring overdue questions) is done. */
  readonly ready: Promise<void>;
  /** Resolves when background work (message edits) is done. */
  idle(): Promise<void>;
  /**
   * Stops timers and listeners; pending questions stay pending in the store. Every `ask()` and `wait()`
   * still waiting rejects at once with `AskUserError("closed")` — also one whose prompt is still being
   * delivered; `close()` itself resolves once deliveries in flight are recorded and summary edits done.
   */
  close(): Promise<void>;
}
