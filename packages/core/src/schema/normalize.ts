import { InvalidAskUserInputError } from "../model/errors.ts";
import { fastNormalizeInput } from "./fast-input.ts";
import { toInputIssues } from "./input-issues.ts";
import { askUserInputSchema, type Prompt } from "./schema.ts";

/**
 * Validates raw `ask_user` input against `askUserInputSchema` and returns the normalised prompt
 * (SPEC §2): strings trimmed, blank descriptions dropped, headers cut to 12 grapheme clusters,
 * `multiSelect` a boolean, `timeoutSeconds` set (default 900, clamped to 30..3600). A clearly valid
 * input of the common shape takes a fast path without zod (`fastNormalizeInput`, the same prompt);
 * everything else is parsed by the schema, which words every issue.
 *
 * @throws InvalidAskUserInputError listing every problem with its path.
 * @example
 * const prompt = normalizeAskUserInput({
 *   questions: [{ id: "deploy_target", header: "Deploy", question: "Where should I deploy?",
 *     options: [{ label: "Staging (Recommended)" }, { label: "Production" }] }],
 * });
 */
export function normalizeAskUserInput(raw: unknown): Prompt {
  const fast = fastNormalizeInput(raw);
  if (fast !== undefined) return fast;
  const parsed = askUserInputSchema.safeParse(raw);
  if (!parsed.success) throw new InvalidAskUserInputError(toInputIssues(parsed.error.issues));
  return parsed.data;
}
