/**
 * `ask_user` for the Claude Agent SDK (`@anthropic-ai/claude-agent-sdk`): an in-process MCP tool
 * (`tool` + `createSdkMcpServer`) whose input is core's `askUserInputSchema` and whose MCP
 * cancellation cancels the question.
 */
import { createSdkMcpServer, tool } from "@anthropic-ai/claude-agent-sdk";
import { ASK_USER_DESCRIPTION, type AskUserResult, askUserInputSchema, LIMITS } from "@ask-user/core";
import { type AskUserToolOptions, askThrough } from "./backend.ts";
import { askUserErrorText, askUserResultText } from "./result-text.ts";

/** The server's name in `mcpServers`; Claude sees the tool as `mcp__ask-user__ask_user`. */
export const ASK_USER_SERVER_NAME = "ask-user";

/**
 * The SDK's per-call timeout for this server: longer than the longest question (3600 s), so a
 * question is never cut off — and cancelled — while a person may still answer it.
 */
export const ASK_USER_CALL_TIMEOUT_MS = (LIMITS.timeoutMaxSeconds + 60) * 1000;

/**
 * The `ask_user` tool definition for `createSdkMcpServer`. A call returns the result twice, as MCP
 * does: one line of text for the model and the `AskUserResult` as `structuredContent`. Cancelling the
 * call (MCP `notifications/cancelled`, which the SDK sends when the query is interrupted) cancels the
 * question. Problems come back as `isError` results the model can act on.
 */
export function createAskUserTool(options: AskUserToolOptions) {
  return tool("ask_user", ASK_USER_DESCRIPTION, askUserInputSchema.shape, async (input, extra) => {
    const { signal } = extra as { signal?: AbortSignal };
    let result: AskUserResult;
    try {
      result = await askThrough(options, input, signal);
    } catch (error) {
      return { isError: true, content: [{ type: "text", text: askUserErrorText(error) }] };
    }
    return {
      content: [{ type: "text", text: askUserResultText(result, input) }],
      structuredContent: result,
    };
  });
}

/**
 * An in-process MCP server with the `ask_user` tool, for `query({ options: { mcpServers } })`, with
 * its call timeout above the longest question ({@link ASK_USER_CALL_TIMEOUT_MS}).
 *
 * @example
 * ```ts
 * const options = {
 *   mcpServers: { [ASK_USER_SERVER_NAME]: createAskUserMcpServer({ backend: client }) },
 *   allowedTools: ["mcp__ask-user__ask_user"],
 * };
 * for await (const message of query({ prompt, options })) console.log(message);
 * ```
 */
export function createAskUserMcpServer(options: AskUserToolOptions) {
  return createSdkMcpServer({
    name: ASK_USER_SERVER_NAME,
    version: "0.1.0",
    tools: [createAskUserTool(options)],
    timeout: ASK_USER_CALL_TIMEOUT_MS,
  });
}
