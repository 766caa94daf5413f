/**
 * `ask_user` for the Vercel AI SDK (`ai` 6): a `tool()` whose input is core's `askUserInputSchema`,
 * whose description is the model guidance, and whose abort signal cancels the question.
 */
import {
  ASK_USER_DESCRIPTION,
  type AskUserResult,
  askUserInputSchema,
  askUserResultSchema,
  type Prompt,
} from "@ask-user/core";
import { type Tool, tool } from "ai";
import { type AskUserToolOptions, askThrough } from "./backend.ts";
import { askUserResultText } from "./result-text.ts";

/**
 * The `ask_user` tool for `generateText` / `streamText` / agents. Its output (`toolResults[].output`)
 * is the structured `AskUserResult` (`outputSchema`: core's `askUserResultSchema`); the model reads the one-line text (`toModelOutput`). The call's
 * `abortSignal` cancels the question. Bad input never reaches a person: the SDK checks it against the
 * schema, the backend's normaliser against the rest, and the model gets the problems as a tool error.
 *
 * @example
 * ```ts
 * const { text } = await generateText({
 *   model,
 *   tools: { ask_user: createAskUserTool({ backend: createAskUserClient({ url }) }) },
 *   stopWhen: stepCountIs(5),
 *   prompt,
 * });
 * ```
 */
export function createAskUserTool(options: AskUserToolOptions): Tool<Prompt, AskUserResult> {
  return tool({
    description: ASK_USER_DESCRIPTION,
    inputSchema: askUserInputSchema,
    outputSchema: askUserResultSchema,
    execute: (input, { abortSignal }) => askThrough(options, input, abortSignal),
    toModelOutput: ({ input, output }) => ({ type: "text", value: askUserResultText(output, input) }),
  });
}
