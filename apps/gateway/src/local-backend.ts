import { gatewayError } from "@ask-user/client";
import {
  type AskUserBroker,
  HTTP_STATUS_OF,
  InvalidAskUserInputError,
  type QuestionFilter,
  type Target,
  toPublicQuestion,
} from "@ask-user/core";
import type { QuestionBackend } from "./backend.ts";
import { decodeCursor, questionPage } from "./cursor.ts";
import { parseCreate } from "./http/parse.ts";
import { HttpError } from "./http/respond.ts";
import { createEndWaiters } from "./mcp/end-waiters.ts";
import { waitWhilePending } from "./wait.ts";

/** The API's answer for an id it does not know (`GET /v1/questions/:id`). */
const notFound = (message: string) => gatewayError(HTTP_STATUS_OF.unknown_question, "not_found", message);

/**
 * The in-process backend: the gateway's own broker, for its MCP endpoint. It answers as the HTTP API
 * would, errors included: each is the `GatewayError` the client would read from that API's answer (404
 * `not_found`, 409 with what the question became, 422 with issues). Its `waitForEnd` serves every
 * waiting MCP call from one broker subscription, dispatched by question id (an answer wakes only its own
 * calls), so ten thousand waiting calls cost a Map entry each, not a listener each.
 */
export function createLocalBackend(
  broker: AskUserBroker,
  defaults: { defaultTarget: Target | undefined; channels: ReadonlySet<string> },
): QuestionBackend {
  const ends = createEndWaiters(broker);
  return {
    async create(input, createOptions = {}) {
      const { signal, ...where } = createOptions;
      try {
        // The API's create body, as the client sends it: the tool input plus where and for whom.
        const body = { ...input, ...where } as Record<string, unknown>;
        const parsed = parseCreate(body, { target: defaults.defaultTarget, channels: defaults.channels });
        const options = signal ? { ...parsed.options, signal } : parsed.options;
        return toPublicQuestion(await broker.create(parsed.input, options));
      } catch (error) {
        if (error instanceof HttpError)
          throw gatewayError(error.status, error.reason, error.message, error.issues);
        if (error instanceof InvalidAskUserInputError) {
          throw gatewayError(HTTP_STATUS_OF.invalid_input, "invalid_input", error.message, error.issues);
        }
        throw error;
      }
    },
    async get(id, options = {}) {
      const record = await waitWhilePending(broker, id, (options.waitSeconds ?? 0) * 1000, options.signal);
      if (!record) throw notFound(`No question with id ${id}.`);
      return toPublicQuestion(record);
    },
    waitForEnd(id, signal) {
      // Not an async function: a waiting call holds a promise reaction here, not a suspended frame.
      return ends.wait(id, signal).then((record) => {
        if (signal.aborted) return undefined;
        if (!record) throw notFound(`No question with id ${id}.`);
        return toPublicQuestion(record);
      });
    },
    async listPage({ cursor, limit = 100, status, runId } = {}) {
      const after = cursor === undefined ? undefined : decodeCursor(cursor);
      if (cursor !== undefined && !after) {
        const issue = { path: "cursor", message: "cursor must be a nextCursor this server returned." };
        throw gatewayError(400, "invalid_query", issue.message, [issue]);
      }
      const filter: QuestionFilter = {};
      if (status !== undefined) filter.status = status;
      if (runId !== undefined) filter.runId = runId;
      return questionPage(broker, filter, after, Math.max(1, Math.min(limit, 500)));
    },
    async cancel(id, cancelOptions = {}) {
      const outcome = await broker.cancel(id, { channel: "mcp", userId: "agent" });
      if (outcome.ok) return toPublicQuestion(outcome.record);
      if (outcome.record && cancelOptions.ifPending) return toPublicQuestion(outcome.record);
      if (outcome.reason === "unknown" || !outcome.record) throw notFound(outcome.message);
      throw gatewayError(HTTP_STATUS_OF.not_pending, outcome.reason, outcome.message);
    },
  };
}
