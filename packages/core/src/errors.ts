/** Machine-readable codes of the errors this library throws. Expected outcomes are values, not errors. */
export type AskUserErrorCode =
  | "invalid_input"
  | "unknown_question"
  | "unknown_channel"
  | "store_conflict"
  | "store_failure"
  | "delivery_failed"
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
