/**
 * `ask_user` for LangChain.js (`@langchain/core`): a structured tool whose schema is core's
 * `askUserInputSchema` and whose run signal cancels the question.
 */
import { ASK_USER_DESCRIPTION, askUserInputSchema } from "@ask-user/core";
import { tool } from "@langchain/core/tools";
import { type AskUserToolOptions, askThrough } from "./backend.ts";
import { askUserResultText } from "./result-text.ts";

/**
 * The `ask_user` tool for `bindTools` and tool loops (`responseFormat: "content_and_artifact"`):
 * invoked with a model's tool call it returns a `ToolMessage` whose `content` is the one-line text the
 * model reads and whose `artifact` is the structured `AskUserResult`. The `signal` of the call's config
 * cancels the question. LangChain checks the input against core's schema before anyone is asked.
 *
 * @example
 * ```ts
 * const askUser = createAskUserTool({ backend: client });
 * const reply = await model.bindTools([askUser]).invoke(messages, { signal });
 * for (const call of reply.tool_calls ?? []) messages.push(await askUser.invoke(call, { signal }));
 * ```
 */
export function createAskUserTool(options: AskUserToolOptions) {
  return tool(
    async (input, config) => {
      const result = await askThrough(options, input, config?.signal);
      return [askUserResultText(result, input), result];
    },
    {
      name: "ask_user",
      description: ASK_USER_DESCRIPTION,
      schema: askUserInputSchema,
      responseFormat: "content_and_artifact",
    },
  );
}
