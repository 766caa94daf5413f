import { AskUserError, type AskUserInput, type AskUserResult } from "@ask-user/core";

type NoAnswerReason = Extract<AskUserResult, { status: "no_answer" }>["reason"];

const NO_ANSWER_TEXT: Record<NoAnswerReason, string> = {
  expired: "no_answer (expired): continue with your best judgment",
  skipped: "no_answer (skipped): the user chose not to answer; continue with your best judgment",
  cancelled: "no_answer (cancelled): the question was cancelled; continue with your best judgment",
  undeliverable:
    "no_answer (undeliverable): the question could not be delivered; continue with your best judgment",
};

/**
 * The one line a model reads — the same as the gateway's MCP tool: `answered: deploy_target =
 * Production` (several questions joined by `; `, in the order they were asked) or `no_answer
 * (expired): continue with your best judgment`. Values with a comma, semicolon or line break are
 * written as a JSON array so the line stays unambiguous.
 *
 * @example
 * askUserResultText({ status: "no_answer", reason: "skipped" });
 * // "no_answer (skipped): the user chose not to answer; continue with your best judgment"
 */
export function askUserResultText(result: AskUserResult, input?: Pick<AskUserInput, "questions">): string {
  if (result.status === "no_answer") return NO_ANSWER_TEXT[result.reason];
  const answers = result.answers.answers;
  const asked = input?.questions.map((q) => q.id).filter((id) => answers[id] !== undefined) ?? [];
  const ids = [...asked, ...Object.keys(answers).filter((id) => !asked.includes(id))];
  return `answered: ${ids.map((id) => `${id} = ${valuesText(answers[id] ?? [])}`).join("; ")}`;
}

function valuesText(values: string[]): string {
  if (values.length === 0) return "(nothing)";
  return values.some((value) => /[,;\n\r]/.test(value)) ? JSON.stringify(values) : values.join(", ");
}

/**
 * What a model reads when `ask_user` failed: for bad input, every problem with its path (so it can
 * fix the call); for anything else, that the question could not be asked and it should go on.
 */
export function askUserErrorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (isInputError(error)) return message;
  return `ask_user failed: ${message} The question could not be asked; continue with your best judgment.`;
}

/** Bad tool input, from the broker (`InvalidAskUserInputError`) or the gateway (`GatewayInputError`). */
function isInputError(error: unknown): boolean {
  return error instanceof AskUserError && error.code === "invalid_input";
}
