import type { AskUserClient, PublicQuestion } from "@ask-user/client";
import type { AbortLike } from "./mcp/abort.ts";

/**
 * What the MCP server needs from a gateway, in `@ask-user/client`'s terms: `create`, `get` (with its
 * long-poll), `cancel` and `listPage` as `AskUserClient` has them, so a client of a running gateway IS a
 * `QuestionBackend` (`ask-user mcp`), and so is the gateway's own broker (`createLocalBackend`, its
 * `/mcp` endpoint). Failures are `GatewayError`s either way: the in-process backend throws what the
 * HTTP API would answer (404 `QuestionNotFoundError`, 422 `GatewayInputError` with issues, …).
 */
export type QuestionBackend = Pick<AskUserClient, "create" | "get" | "cancel"> &
  Partial<Pick<AskUserClient, "listPage">> & {
    /**
     * Optional: waits until the question has ended, however long that takes, and resolves with it;
     * `undefined` once `signal` aborts (an `AbortSignal`, or the lighter `CallAbort` of a waiting call). Throws a `QuestionNotFoundError` (404) for an unknown id. The
     * in-process backend offers it (one shared broker listener for all waiters, no timer or
     * re-subscription per waiter); without it callers wait in slices of `get(id, { waitSeconds })`.
     */
    waitForEnd?(id: string, signal: AbortLike): Promise<PublicQuestion | undefined>;
  };
