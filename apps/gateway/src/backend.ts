import { AskUserError, type AskUserResult, codeOfStatus, type InputIssue } from "@ask-user/core";
import type { CreateQuestionBody, PublicQuestion } from "./api.ts";

/**
 * What the MCP server and the CLI need from a gateway: the in-process broker (inside the gateway) or
 * the HTTP API of a running gateway (`ask-user mcp`, `ask-user ask`). Errors are `BackendError`s.
 */
export interface QuestionBackend {
  /**
   * Creates and delivers a question; throws BackendError(422, issues) on bad input. A backend that can
   * (the in-process one) cancels the question when `signal` aborts while the prompt is being delivered.
   */
  create(body: CreateQuestionBody, options?: { signal?: AbortSignal }): Promise<PublicQuestion>;
  /** The question; with `waitSeconds`, waits up to that long while it is pending. */
  get(id: string, options?: { waitSeconds?: number; signal?: AbortSignal }): Promise<PublicQuestion>;
  /**
   * Optional: waits until the question has ended, however long that takes, and resolves with it;
   * `undefined` once `signal` aborts. Throws BackendError(404) for an unknown id. The in-process
   * backend offers it (one shared broker listener for all waiters, no timer or re-subscription per
   * waiter); without it callers wait in slices of `get(id, { waitSeconds })`.
   */
  waitForEnd?(id: string, signal: AbortSignal): Promise<PublicQuestion | undefined>;
  /** Cancels a pending question; resolves with the record (already final ones are returned as they are). */
  cancel(id: string): Promise<PublicQuestion>;
  /**
   * Optional: one page of questions, oldest first (`GET /v1/questions?limit=&cursor=`), with the cursor
   * of the next page when there is more. MCP's `tasks/list` needs it; without it the MCP server does not
   * offer `tasks/list`.
   */
  listPage?(page: { cursor?: string; limit?: number }): Promise<QuestionPage>;
}

/** A page of {@link QuestionBackend.listPage}. */
export interface QuestionPage {
  questions: PublicQuestion[];
  /** Pass it as `cursor` for the next page; absent on the last page. */
  nextCursor?: string;
}

/**
 * A failed backend call, in core's `AskUserError` family (code `request_failed`): the API's HTTP status
 * (0 when the gateway could not be reached), its error code as `reason` (`not_found`, `answered`,
 * `unreachable`, …) and the field issues of a 422.
 */
export class BackendError extends AskUserError {
  override name = "BackendError";

  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
    readonly issues?: InputIssue[],
  ) {
    super(codeOfStatus(status, reason), message);
  }
}

/** Waits for a question to end, calling `onTick` with the seconds left after each wait slice. */
export async function waitForResult(
  backend: QuestionBackend,
  question: PublicQuestion,
  options: {
    signal?: AbortSignal;
    sliceSeconds?: number;
    onTick?: (secondsLeft: number, q: PublicQuestion) => void;
  } = {},
): Promise<AskUserResult> {
  let current = question;
  const slice = options.sliceSeconds ?? 10;
  while (!current.result) {
    if (options.signal?.aborted) {
      current = await backend.cancel(current.id);
      break;
    }
    const left = Math.max(0, Math.ceil((current.expiresAt - Date.now()) / 1000));
    options.onTick?.(left, current);
    const waitOptions: { waitSeconds: number; signal?: AbortSignal } = {
      waitSeconds: Math.max(1, Math.min(slice, left + 1)),
    };
    if (options.signal) waitOptions.signal = options.signal;
    try {
      current = await backend.get(current.id, waitOptions);
    } catch (error) {
      if (options.signal?.aborted) continue;
      throw error;
    }
  }
  return current.result ?? { status: "no_answer", reason: "cancelled" };
}
