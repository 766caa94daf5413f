import { type AskUserBroker, InvalidAskUserInputError, type Target } from "@ask-user/core";
import { toPublic } from "./api.ts";
import { BackendError, type QuestionBackend } from "./backend.ts";
import { parseCreate } from "./http/parse.ts";
import { HttpError } from "./http/respond.ts";
import { waitWhilePending } from "./wait.ts";

/** The in-process backend: the gateway's own broker, for its MCP endpoint. */
export function createLocalBackend(
  broker: AskUserBroker,
  defaults: { defaultTarget: Target | undefined; channels: ReadonlySet<string> },
): QuestionBackend {
  return {
    async create(body, createOptions = {}) {
      try {
        const { input, options } = parseCreate(body as unknown as Record<string, unknown>, {
          target: defaults.defaultTarget,
          channels: defaults.channels,
        });
        const signal = createOptions.signal;
        return toPublic(await broker.create(input, signal ? { ...options, signal } : options));
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
      return toPublic(record);
    },
    async cancel(id) {
      const outcome = await broker.cancel(id, { channel: "mcp", userId: "agent" });
      if (outcome.ok) return toPublic(outcome.record);
      if (outcome.record) return toPublic(outcome.record);
      throw new BackendError(404, "not_found", outcome.message);
    },
  };
}
