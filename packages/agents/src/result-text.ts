import { AskUserError } from "@ask-user/core";

export { askUserResultText } from "@ask-user/core";

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
