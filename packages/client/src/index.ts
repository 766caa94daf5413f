/**
 * @ask-user/client — a typed client for the ask-user gateway's HTTP API on `fetch`: `ask` (create and
 * wait, abort cancels), `create`, `wait` (long-poll that survives restarts and network drops),
 * `answer` / `skip` / `cancel`, paged `list`, and `events()` over Server-Sent Events with resume.
 */
export type { RetryOptions } from "./backoff.ts";
export {
  type AskUserClient,
  type AskUserClientOptions,
  createAskUserClient,
  type OperatorSurface,
} from "./client.ts";
export {
  GatewayAuthError,
  GatewayError,
  type GatewayErrorDetails,
  GatewayInputError,
  GatewayUnavailableError,
  gatewayError,
  QuestionNotFoundError,
  QuestionNotPendingError,
} from "./errors.ts";
export type { EventsOptions } from "./events.ts";
export type {
  GatewayEvent,
  ListFilter,
  PublicQuestion,
  QuestionEventType,
  QuestionOptions,
  QuestionPage,
} from "./types.ts";
export type { RetryEvent, WaitOptions } from "./wait.ts";
