import { type AskUserBroker, InvalidAskUserInputError, type Target, toPublicQuestion } from "@ask-user/core";
import { BackendError, type QuestionBackend } from "./backend.ts";
import { decodeCursor, encodeCursor } from "./cursor.ts";
import { parseCreate } from "./http/parse.ts";
import { HttpError } from "./http/respond.ts";
import { createEndWaiters } from "./mcp/end-waiters.ts";
import { waitWhilePending } from "./wait.ts";

/**
 * The in-process backend: the gateway's own broker, for its MCP endpoint. Its `waitForEnd` serves
 * every waiting MCP call from one broker subscription, dispatched by question id (an answer wakes
 * only its own calls), so ten thousand waiting calls cost a Map entry each, not a listener each.
 */
export function createLocalBackend(
  broker: AskUserBroker,
  defaults: { defaultTarget: Target | undefined; channels: ReadonlySet<string> },
): QuestionBackend {
  const ends = createEndWaiters(broker);
  return {
    async create(body, createOptions = {}) {
      try {
        const { input, options } = parseCreate(body as unknown as Record<string, unknown>, {
          target: defaults.defaultTarget,
          channels: defaults.channels,
        });
        const signal = createOptions.signal;
        return toPublicQuestion(await broker.create(input, signal ? { ...options, signal } : options));
      } catch (error) {
        if (error instanceof HttpError)
          throw new BackendError(error.status, error.reason, error.message, error.issues);
        if (error instanceof InvalidAskUserInputError) {
          throw new BackendError(422, "invalid_input", error.message, error.issues);
        }
        throw error;
      }
    },
    async get(id, options = {}) {
      const record = await waitWhilePending(broker, id, (options.waitSeconds ?? 0) * 1000, options.signal);
      if (!record) throw new BackendError(404, "not_found", `No question with id ${id}.`);
      return toPublicQuestion(record);
    },
    waitForEnd(id, signal) {
      // Not an async function: a waiting call holds a promise reaction here, not a suspended frame.
      return ends.wait(id, signal).then((record) => {
        if (signal.aborted) return undefined;
        if (!record) throw new BackendError(404, "not_found", `No question with id ${id}.`);
        return toPublicQuestion(record);
      });
    },
    async listPage({ cursor, limit = 100 }) {
      const after = cursor === undefined ? undefined : decodeCursor(cursor);
      if (cursor !== undefined && !after) {
        throw new BackendError(400, "invalid_query", "cursor must be a nextCursor this server returned.");
      }
      const size = Math.max(1, Math.min(limit, 500));
      const records = await broker.list({}, after ? { limit: size + 1, after } : { limit: size + 1 });
      const page = records.slice(0, size);
      const last = page.at(-1);
      return {
        questions: page.map(toPublicQuestion),
        ...(records.length > size && last ? { nextCursor: encodeCursor(last) } : {}),
      };
    },
    async cancel(id) {
      const outcome = await broker.cancel(id, { channel: "mcp", userId: "agent" });
      if (outcome.ok) return toPublicQuestion(outcome.record);
      if (outcome.record) return toPublicQuestion(outcome.record);
      throw new BackendError(404, "not_found", outcome.message);
    },
  };
}
