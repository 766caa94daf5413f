/** Machine-readable codes of the errors this library throws. Expected outcomes are values, not errors. */
export type AskUserErrorCode =
  | "invalid_input"
  | "unknown_question"
  | "unknown_channel"
  | "store_conflict"
  | "store_failure"
  | "store_locked" // the store's file is held by another running gateway
  | "delivery_failed"
  | "channel_refused"
  | "channel_unreachable"
  | "channel_rate_limited"
  | "request_failed" // an HTTP API call was refused or failed: see the error's `status` and `reason`
  | "closed";

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

/** One problem with tool input: where it is (`questions[1].options[0].label`) and what to do about it. */
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
  method?: string;
  /** The platform's status or error code (HTTP status, Telegram `error_code`, Slack `error`). */
  status?: number | string;
  /** For `rate_limited`: when the platform says to try again. */
  retryAfterMs?: number;
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
