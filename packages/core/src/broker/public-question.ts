import { type QuestionRecord, resultOf } from "../model/types.ts";
import type { AskUserResult } from "../schema/result-schema.ts";

/**
 * A question as the gateway's HTTP API, its event stream, the web panel and API clients see it: the
 * stored record without its secret action tokens (a token would let anyone press the buttons), plus
 * the agent-facing `result` once it has ended.
 */
export type PublicQuestion = Omit<QuestionRecord, "tokens"> & { result?: AskUserResult };

/**
 * The public view of a record: `tokens` left out, `result` added when the question has ended.
 *
 * @example
 * const view = toPublicQuestion(record); // no `tokens`; `view.result` once the question has ended
 */
export function toPublicQuestion(record: QuestionRecord): PublicQuestion {
  const { tokens: _tokens, ...rest } = record;
  const result = resultOf(record);
  return result ? { ...rest, result } : rest;
}
