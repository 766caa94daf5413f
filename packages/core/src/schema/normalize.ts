import { InvalidAskUserInputError } from "../model/errors.ts";
import { toInputIssues } from "./input-issues.ts";
import { askUserInputSchema, type Prompt } from "./schema.ts";

/**
 * Validates raw `ask_user` input against `askUserInputSchema` and returns the normalised prompt
 * (SPEC §2): strings trimmed, blank descriptions dropped, headers cut to 12 grapheme clusters,
 * `multiSelect` a boolean, `timeoutSeconds` set (default 900, clamped to 30..3600).
 *
 * @throws InvalidAskUserInputError listing every problem with its path.
 * @example
 * const prompt = normalizeAskUserInput({
 *   questions: [{ id: "deploy_target", header: "Deploy", question: "Where should I deploy?",
 *     options: [{ label: "Staging (Recommended)" }, { label: "Production" }] }],
 * });
 */
export function normalizeAskUserInput(raw: unknown): Prompt {
  const parsed = askUserInputSchema.safeParse(raw);
  if (!parsed.success) throw new InvalidAskUserInputError(toInputIssues(parsed.error.issues));
  return parsed.data;
}
