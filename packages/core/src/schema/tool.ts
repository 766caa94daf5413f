import { z } from "zod";
import { askUserInputSchema } from "./schema.ts";

/** The model guidance carried by the tool description (SPEC §2). */
export const ASK_USER_DESCRIPTION = [
  "Ask the user 1-3 structured questions and wait for the answers. The user answers in their chat app",
  "(buttons or a text reply) or the web panel; you get {status:'answered', answers:{answers:{<id>:[values]}}}",
  "or {status:'no_answer', reason:'expired'|'skipped'|'cancelled'|'undeliverable'}.",
  "",
  "Use it ONLY when you are blocked on a decision that genuinely belongs to the user and that you cannot",
  "infer from the request, the code or a sensible default.",
  "- Prefer exactly one question: a single single-select question gets native buttons. At most three.",
  "- Put every choice in `options` (2-4). Put the recommended option first and end its label with",
  "  ' (Recommended)'.",
  "- Never add an 'Other' option: a free-text answer is always offered by the system.",
  "- Set `multiSelect: true` only when several options can be chosen together.",
  "- After `no_answer`, continue with your best judgment; do not ask the same thing again at once.",
  "- Never use it to ask permission to proceed or to confirm your own plan, and never ask for passwords,",
  "  tokens or other credentials.",
  "Answer values are the option labels exactly as you wrote them (or the user's own text), as arrays.",
].join("\n");

/** The model-facing tool definition: name, description with the guidance, JSON Schema of the input. */
export interface AskUserToolDefinition {
  name: "ask_user";
  description: string;
  inputSchema: Record<string, unknown>;
}

/**
 * The `ask_user` tool definition for a model: its JSON Schema is the input side of `askUserInputSchema`,
 * the schema `normalizeAskUserInput` parses with. What JSON Schema cannot express (lengths in grapheme
 * clusters, unique labels and ids, no authored Other or Skip) is said in the field descriptions.
 *
 * @example
 * const tools = [askUserTool]; // hand to your model client; validate calls with normalizeAskUserInput
 */
export const askUserTool: AskUserToolDefinition = {
  name: "ask_user",
  description: ASK_USER_DESCRIPTION,
  inputSchema: inputJsonSchema(),
};

/** The input side of `askUserInputSchema` as plain JSON Schema (draft 2020-12, no `$ref`). */
function inputJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(askUserInputSchema, { io: "input", target: "draft-2020-12" }) as Record<
    string,
    unknown
  >;
}

/**
 * The tool for a run: primary (main-session) runs get it; subagents and other non-primary runs do not.
 *
 * @example
 * const tools = [askUserToolFor({ primary: run.isMain })].filter((t) => t !== undefined);
 */
export function askUserToolFor(run: { primary: boolean }): AskUserToolDefinition | undefined {
  return run.primary ? askUserTool : undefined;
}
