/** Telegram errors, told apart: "the platform said no" (GrammyError) vs "the network failed" (HttpError). */
import { AskUserError } from "@ask-user/core";
import { GrammyError, HttpError } from "grammy";

/** A short, token-free description of an error for logs (grammY never puts the token in messages). */
export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/**
 * Wraps a failed Bot API call in core's error family (`delivery_failed`), keeping the platform's words:
 * `Telegram refused sendMessage: 400 Bad Request: chat not found`.
 */
export function deliveryError(error: unknown, method: string): AskUserError {
  if (error instanceof AskUserError) return error;
  if (error instanceof GrammyError) {
    return new AskUserError(
      "delivery_failed",
      `Telegram refused ${method}: ${error.error_code} ${error.description}`,
      { cause: error },
    );
  }
  const reason = error instanceof HttpError ? error.message : describeError(error);
  return new AskUserError("delivery_failed", `Could not reach Telegram for ${method}: ${reason}`, {
    cause: error,
  });
}

/**
 * Edit failures that mean "nothing left to do": the message already shows this, or it is gone.
 */
export function isSettledEditError(error: unknown): boolean {
  if (!(error instanceof GrammyError) || error.error_code !== 400) return false;
  const description = error.description.toLowerCase();
  return description.includes("message is not modified") || description.includes("message to edit not found");
}
