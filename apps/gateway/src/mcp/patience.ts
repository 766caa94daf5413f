import { GatewayUnavailableError } from "@ask-user/client";
import { type AskUserLogger, pause } from "@ask-user/core";
import type { PublicQuestion } from "../api.ts";
import type { QuestionBackend } from "../backend.ts";

/** The longest pause between two attempts to reach a backend that failed. */
const MAX_RETRY_DELAY_MS = 10_000;
/** How long after the question's deadline a backend that keeps failing is still retried. */
const RETRY_GRACE_MS = 60_000;

/**
 * Reads question `id`, waiting up to `waitSeconds` while it is pending, and rides out a gateway restart
 * or a network blip (a `GatewayUnavailableError`: status 0 or 5xx): the question and its answer survive in the gateway's store, so
 * the read is retried — with a growing pause — until a minute past `expiresAt` instead of failing.
 * Resolves with `undefined` once `signal` aborts.
 */
export async function patientGet(
  backend: QuestionBackend,
  id: string,
  expiresAt: number,
  options: { waitSeconds: number; signal: AbortSignal; logger: AskUserLogger; retryDelayMs: number },
): Promise<PublicQuestion | undefined> {
  const { signal, logger } = options;
  for (let attempt = 0; !signal.aborted; attempt++) {
    try {
      return await backend.get(id, { waitSeconds: options.waitSeconds, signal });
    } catch (error) {
      if (signal.aborted) return undefined;
      const transient = error instanceof GatewayUnavailableError;
      if (!transient || Date.now() > expiresAt + RETRY_GRACE_MS) throw error;
      logger.warn(
        { err: error, questionId: id, attempt },
        "waiting for the answer: backend failed, retrying",
      );
      await pause(Math.min(options.retryDelayMs * 2 ** attempt, MAX_RETRY_DELAY_MS), signal);
    }
  }
  return undefined;
}

/**
 * Waits until question `question` has ended (its `result` is set), in slices of `sliceSeconds`;
 * `undefined` when `signal` aborted first.
 */
export async function waitUntilEnded(
  backend: QuestionBackend,
  question: Pick<PublicQuestion, "id" | "expiresAt" | "result">,
  options: { sliceSeconds: number; signal: AbortSignal; logger: AskUserLogger; retryDelayMs: number },
): Promise<PublicQuestion | undefined> {
  if (question.result) return question as PublicQuestion;
  let current: Pick<PublicQuestion, "id" | "expiresAt" | "result"> | undefined = question;
  while (current && !current.result) {
    if (options.signal.aborted) return undefined;
    const left = Math.max(0, Math.ceil((current.expiresAt - Date.now()) / 1000));
    const waitSeconds = Math.max(1, Math.min(options.sliceSeconds, left + 1));
    current = await patientGet(backend, current.id, current.expiresAt, { ...options, waitSeconds });
  }
  return current as PublicQuestion | undefined;
}
