/**
 * `ask_user` for the OpenAI Agents SDK (`@openai/agents`): a function tool with core's tool definition
 * and normaliser, whose run signal cancels the question.
 */
import { type AskUserResult, askUserTool, normalizeAskUserInput } from "@ask-user/core";
import { tool } from "@openai/agents";
import { type AskUserToolOptions, askThrough } from "./backend.ts";
import { askUserErrorText, askUserResultText } from "./result-text.ts";

/**
 * The `ask_user` function tool for an `Agent`: core's description (the model guidance) and JSON Schema;
 * the arguments are checked by core's normaliser. The model reads the one-line text (the tool's output);
 * the structured `AskUserResult` rides along as the output item's `customData.askUser`
 * (`result.newItems`). Aborting the run (`run(agent, input, { signal })`) cancels the question. Bad
 * input and failures reach the model as text it can act on (`errorFunction`).
 *
 * @example
 * ```ts
 * const agent = new Agent({ name: "deployer", tools: [createAskUserTool({ backend: client })] });
 * const result = await run(agent, "Deploy the release.", { signal });
 * ```
 */
/**
 * The JSON Schema core generates from `askUserInputSchema`, as plain JSON: zod marks its output as a
 * Standard Schema, which the SDK would take for a zod-like schema needing strict mode. (Typed as the
 * SDK's non-strict shape; the object itself is core's schema, `additionalProperties: false` included.)
 */
const parameters = JSON.parse(JSON.stringify(askUserTool.inputSchema)) as {
  type: "object";
  properties: Record<string, Record<string, unknown>>;
  required: string[];
  additionalProperties: true;
};

export function createAskUserTool(options: AskUserToolOptions) {
  // The structured result of each call, until the SDK asks for the output item's custom data.
  const results = new Map<string, AskUserResult>();
  return tool({
    name: askUserTool.name,
    description: askUserTool.description,
    // Not strict: the SDK's strict mode rewrites the schema (every field required) and cannot convert
    // a zod schema with transforms, so the normaliser checks the arguments instead.
    parameters,
    strict: false,
    async execute(raw, _context, details) {
      // The same zod schema checks the arguments; its issues (with paths) go back to the model.
      const input = normalizeAskUserInput(raw);
      const result = await askThrough(options, input, details?.signal);
      const callId = details?.toolCall?.callId;
      if (callId !== undefined) results.set(callId, result);
      return askUserResultText(result, input);
    },
    customDataExtractor({ toolCall }) {
      const result = results.get(toolCall.callId);
      results.delete(toolCall.callId);
      return result === undefined ? undefined : { askUser: result };
    },
    errorFunction: (_context, error) => askUserErrorText(error),
  });
}
