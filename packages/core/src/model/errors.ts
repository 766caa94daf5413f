/**
 * Machine-readable codes of the errors ask-user throws, everywhere: core, the stores, the channels, the
 * gateway's HTTP API and the client (one vocabulary; {@link HTTP_STATUS_OF} maps each to its HTTP
 * status). Expected outcomes (answered, expired, …) are values, not errors.
 */
export type AskUserErrorCode =
  | "invalid_input" // the request or tool input is wrong: see the error's issues (400, 413, 415, 422)
  | "unauthorized" // no token or a wrong one (401)
  | "forbidden" // this host or origin may not call (403)
  | "unknown_question" // no question with that id (404)
  | "unknown_channel" // no channel with that name is running (422)
  | "not_pending" // the question no longer waits: answered, skipped, expired, … (409)
  | "store_conflict" // a concurrent write won, or the id exists (409)
  | "store_failure" // the store failed (500)
  | "store_locked" // the store's file is held by another running gateway (503)
  | "delivery_failed" // the channel could not deliver (502)
  | "channel_refused" // the platform said no (502)
  | "channel_unreachable" // the platform could not be reached (503)
  | "channel_rate_limited" // the platform said "later" (429)
  | "request_failed" // an HTTP call failed otherwise: see the error's `status` and `reason` (500)
  | "unavailable" // the gateway could not be reached, or answered 5xx (0 / 5xx)
  | "closed"; // the broker or gateway is shutting down (503)

/** The HTTP status of each code (one table: the gateway answers with it, the client reads it back). */
export const HTTP_STATUS_OF = {
  invalid_input: 422,
  unauthorized: 401,
  forbidden: 403,
  unknown_question: 404,
  unknown_channel: 422,
  not_pending: 409,
  store_conflict: 409,
  store_failure: 500,
  store_locked: 503,
  delivery_failed: 502,
  channel_refused: 502,
  channel_unreachable: 503,
  channel_rate_limited: 429,
  request_failed: 500,
  unavailable: 503,
  closed: 503,
} as const satisfies Record<AskUserErrorCode, number>;

/**
 * The code of an HTTP error answer (the client's reading of {@link HTTP_STATUS_OF}): 400, 413, 415, 422
 * `invalid_input`, 401 `unauthorized`, 403 `forbidden`, 404 `unknown_question`, 409 `not_pending`, 429
 * `channel_rate_limited`, 503 `closed` when the gateway says it is shutting down, other 5xx and no answer
 * (status 0) `unavailable`, anything else `request_failed`.
 */
export function codeOfStatus(status: number, reason?: string): AskUserErrorCode {
  if (status === 400 || status === 413 || status === 415 || status === 422) return "invalid_input";
  if (status === 401) return "unauthorized";
  if (status === 403) return "forbidden";
  if (status === 404) return "unknown_question";
  if (status === 409) return "not_pending";
  if (status === 429) return "channel_rate_limited";
  if (status === 503 && reason === "shutting_down") return "closed";
  if (status === 0 || status >= 500) return "unavailable";
  return "request_failed";
}

/**
 * The one error family of ask-user: bugs and infrastructure failures. `code` is a string literal that
 * callers may switch on; `cause` carries the underlying error where there is one.
 */
export class AskUserError extends Error {
  override name = "AskUserError";
  readonly code: AskUserErrorCode;

  constructor(code: AskUserErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/**
 * One problem with input (tool input, answers, a request body): where it is
 * (`questions[1].options[0].label`) and what to do about it. The one issue type of every surface.
 */
export interface InputIssue {
  path: string;
  message: string;
}

/**
 * Thrown by `normalizeAskUserInput` for bad tool input. `issues` lists every problem at once; `message`
 * is written for a model to act on (no stack trace, one line per problem).
 */
export class InvalidAskUserInputError extends AskUserError {
  override name = "InvalidAskUserInputError";
  readonly issues: InputIssue[];

  constructor(issues: InputIssue[]) {
    const lines = issues.map((issue) => `- ${issue.path || "(input)"}: ${issue.message}`);
    super(
      "invalid_input",
      `The ask_user input has ${issues.length} problem${issues.length === 1 ? "" : "s"}; fix ${issues.length === 1 ? "it" : "them all"} and call again:\n${lines.join("\n")}`,
    );
    this.issues = issues;
  }
}

/** How a platform call failed: the platform said no, the network failed, or the platform said "later". */
export type ChannelFailure = "refused" | "unreachable" | "rate_limited";

const FAILURE_CODES = {
  refused: "channel_refused",
  unreachable: "channel_unreachable",
  rate_limited: "channel_rate_limited",
} as const satisfies Record<ChannelFailure, AskUserErrorCode>;

/** Options of {@link ChannelError}. */
export interface ChannelErrorOptions {
  /** The platform call: `sendMessage`, `chat.postMessage`, `POST /channels/{id}/messages`. */
  method?: string | undefined;
  /** The platform's status or error code (HTTP status, Telegram `error_code`, Slack `error`). */
  status?: number | string | undefined;
  /** For `rate_limited`: when the platform says to try again. */
  retryAfterMs?: number | undefined;
  cause?: unknown;
}

/**
 * A failed platform call, in one shape on every channel (each channel maps its SDK's errors with one
 * function, e.g. `toChannelError`): `failure` tells "refused" (the platform answered no: chat not found,
 * missing permission, bad request) from "unreachable" (timeout, DNS, connection reset: it may or may not
 * have happened) and "rate_limited" (with `retryAfterMs`). The message keeps the platform's words and
 * never a token: `Telegram refused sendMessage: 400 Bad Request: chat not found`.
 */
export class ChannelError extends AskUserError {
  override name = "ChannelError";
  readonly channel: string;
  readonly failure: ChannelFailure;
  readonly method: string | undefined;
  readonly status: number | string | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(channel: string, failure: ChannelFailure, message: string, options: ChannelErrorOptions = {}) {
    super(
      FAILURE_CODES[failure],
      message,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.channel = channel;
    this.failure = failure;
    this.method = options.method;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** A short, token-free description of an error for logs and records: `Name: message`. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
