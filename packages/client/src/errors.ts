import { AskUserError, type AskUserErrorCode, codeOfStatus, type InputIssue } from "@ask-user/core";

/** What every gateway error carries besides its message. */
export interface GatewayErrorDetails {
  /** The HTTP status; `0` when no HTTP answer came (connection refused or broken, timeout). */
  status: number;
  /**
   * The API's reason: its error `code` (`unauthorized`, `not_found`, `invalid_input`, …), for a 409 the
   * status the question already has (`answered`, `expired`, …), and `unreachable`, `network`,
   * `timeout` or `bad_response` when no usable answer came.
   */
  reason: string;
  /** Field problems with their paths (`questions[0].options[1].label`), for 400 and 422. */
  issues?: InputIssue[];
  cause?: unknown;
}

/**
 * A call to the gateway that failed: the gateway answered with an error, or no answer came. `status`
 * and `reason` are the API's; `code` is the `AskUserError` family's coarse category (see the
 * subclasses). Subclasses: {@link GatewayInputError}, {@link GatewayAuthError},
 * {@link QuestionNotFoundError}, {@link QuestionNotPendingError}, {@link GatewayUnavailableError}.
 */
export class GatewayError extends AskUserError {
  override name = "GatewayError";
  readonly status: number;
  readonly reason: string;
  readonly issues: InputIssue[];

  constructor(code: AskUserErrorCode, message: string, details: GatewayErrorDetails) {
    super(code, message, details.cause === undefined ? undefined : { cause: details.cause });
    this.status = details.status;
    this.reason = details.reason;
    this.issues = details.issues ?? [];
  }
}

/**
 * The request was refused for what it said (400, 413, 415, 422; code `invalid_input`): bad tool input
 * or answers, with every problem and its path in `issues`. The message lists them one per line, in
 * the same form as core's `InvalidAskUserInputError`, so a model can fix its call.
 */
export class GatewayInputError extends GatewayError {
  override name = "GatewayInputError";
  constructor(message: string, details: GatewayErrorDetails) {
    super("invalid_input", withIssues(message, details.issues ?? []), details);
  }
}

/**
 * The token is missing or wrong (401, code `unauthorized`), or the gateway refuses this host or origin
 * (403, code `forbidden`).
 */
export class GatewayAuthError extends GatewayError {
  override name = "GatewayAuthError";
  constructor(message: string, details: GatewayErrorDetails) {
    super(details.status === 403 ? "forbidden" : "unauthorized", message, details);
  }
}

/** No question with that id (404; code `unknown_question`). */
export class QuestionNotFoundError extends GatewayError {
  override name = "QuestionNotFoundError";
  constructor(message: string, details: GatewayErrorDetails) {
    super("unknown_question", message, details);
  }
}

/**
 * The question no longer waits (409; code `not_pending`): `reason` is what it became (`answered`,
 * `skipped`, `expired`, `cancelled`, `undeliverable`) and the message says by whom or when
 * ("already answered by @alice", "expired at 14:05 UTC").
 */
export class QuestionNotPendingError extends GatewayError {
  override name = "QuestionNotPendingError";
  constructor(message: string, details: GatewayErrorDetails) {
    super("not_pending", message, details);
  }
}

/**
 * The gateway could not be reached or could not serve the request: nothing listens (`unreachable`),
 * the connection broke (`network`), no answer in time (`timeout`), it is draining (503
 * `shutting_down`; code `closed`) or it failed (5xx; code `unavailable`). `wait` and `events` retry
 * these by themselves.
 */
export class GatewayUnavailableError extends GatewayError {
  override name = "GatewayUnavailableError";
  constructor(message: string, details: GatewayErrorDetails) {
    super(details.status === 503 ? "closed" : "unavailable", message, details);
  }
}

/** The message with one line per issue (those the gateway's message does not already list). */
function withIssues(message: string, issues: InputIssue[]): string {
  const lines = issues
    .map((issue) => `- ${issue.path || "(input)"}: ${issue.message}`)
    .filter((line) => !message.includes(line));
  return lines.length === 0 ? message : `${message}\n${lines.join("\n")}`;
}

/** The error for an error response; tolerates bodies that are not the API's error shape. */
export function errorFromResponse(status: number, body: unknown): GatewayError {
  const error = (body as { error?: { code?: unknown; message?: unknown; issues?: unknown } } | undefined)
    ?.error;
  const reason = typeof error?.code === "string" ? error.code : `http_${status}`;
  const message =
    typeof error?.message === "string" ? error.message : `The gateway answered with HTTP ${status}.`;
  const issues = Array.isArray(error?.issues) ? error.issues.filter(isIssue) : undefined;
  return gatewayError(status, reason, message, issues);
}

/**
 * The `GatewayError` subclass an HTTP answer with this status and API error code (`reason`) is read as:
 * `GatewayInputError` for 400/413/415/422, `GatewayAuthError` for 401/403, `QuestionNotFoundError` for 404,
 * `QuestionNotPendingError` for 409, `GatewayUnavailableError` for 5xx and 0 (no answer), else a plain `GatewayError` (its
 * code from core's `codeOfStatus`). For code that answers in-process what the API would answer over HTTP
 * (the gateway's own MCP backend), so that its callers handle one error family.
 *
 * @example
 * throw gatewayError(404, "not_found", `No question with id ${id}.`); // a QuestionNotFoundError
 */
export function gatewayError(
  status: number,
  reason: string,
  message: string,
  issues?: InputIssue[],
): GatewayError {
  const details: GatewayErrorDetails = { status, reason };
  if (issues !== undefined) details.issues = issues;
  const code = codeOfStatus(status, reason);
  if (code === "invalid_input") return new GatewayInputError(message, details);
  if (code === "unauthorized" || code === "forbidden") return new GatewayAuthError(message, details);
  if (code === "unknown_question") return new QuestionNotFoundError(message, details);
  if (code === "not_pending") return new QuestionNotPendingError(message, details);
  if (status === 0 || status >= 500) return new GatewayUnavailableError(message, details);
  return new GatewayError(code, message, details);
}

function isIssue(value: unknown): value is InputIssue {
  const issue = value as Partial<InputIssue> | null;
  return typeof issue?.path === "string" && typeof issue.message === "string";
}

/** Errors of the connection itself (nothing listens there) as opposed to a connection that broke. */
const UNREACHABLE_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

/** The error for a fetch that got no HTTP answer. */
export function errorFromNetwork(base: string, error: unknown): GatewayUnavailableError {
  const code = systemCode(error);
  if (code !== undefined && UNREACHABLE_CODES.has(code)) {
    return new GatewayUnavailableError(`No ask-user gateway answers at ${base} (${code}).`, {
      status: 0,
      reason: "unreachable",
      cause: error,
    });
  }
  const detail = code ?? (error instanceof Error ? error.message : String(error));
  return new GatewayUnavailableError(
    `The connection to the ask-user gateway at ${base} failed (${detail}).`,
    {
      status: 0,
      reason: "network",
      cause: error,
    },
  );
}

/** The system error code (`ECONNREFUSED`, …) of a failed fetch: undici wraps it in `cause`. */
function systemCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth++) {
    const { code, cause, errors } = current as { code?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === "string" && /^E[A-Z]+$/.test(code)) return code;
    // A refused dual-stack connect is an AggregateError with one error per address.
    current = Array.isArray(errors) && errors.length > 0 ? errors[0] : cause;
  }
  return undefined;
}

/** True for failures worth retrying: no answer at all, a draining or failing gateway. */
export function isRetryable(error: unknown): boolean {
  return error instanceof GatewayUnavailableError;
}
