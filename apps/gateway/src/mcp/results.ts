import { GatewayError } from "@ask-user/client";
import type { AskUserLogger, AskUserResult } from "@ask-user/core";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { PublicQuestion } from "../api.ts";
import { START_HINT } from "../http-client.ts";
import { issuesText, resultText } from "./tool.ts";

/**
 * A JSON-RPC error with a clean message: the SDK's `McpError` puts `MCP error <code>: ` in front of its
 * message, and the client's `McpError` adds the same again, so a thrown `McpError` reads
 * `MCP error -32602: MCP error -32602: …` at the client. Both the SDK server and the HTTP router send
 * `code` and `message` of this error as they are.
 */
export class ProtocolError extends Error {
  override name = "ProtocolError";

  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** JSON-RPC error codes used here. */
export const RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
} as const;

/** The tool result of an ended question: `structuredContent` plus the one line a model reads. */
export function successResult(result: AskUserResult, question: PublicQuestion): CallToolResult {
  return {
    content: [{ type: "text", text: resultText(result, question.prompt) }],
    structuredContent: result as unknown as Record<string, unknown>,
  };
}

/** A tool error the model reads. */
export function errorResult(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

/** A backend failure as a tool error: input issues listed for the model, anything else logged too. */
export function failureResult(
  logger: AskUserLogger,
  error: unknown,
  step: string,
  questionId?: string,
): CallToolResult {
  if (error instanceof GatewayError && error.status === 422) {
    return errorResult(
      issuesText(error.issues.length ? error.issues : [{ path: "", message: error.message }]),
    );
  }
  if (error instanceof GatewayError && error.status >= 400 && error.status < 500) {
    logger.warn({ status: error.status, code: error.reason, step, questionId }, error.message);
    return errorResult(`ask_user was refused (${error.reason}): ${error.message}`);
  }
  logger.error({ err: error, step, questionId }, "ask_user over MCP failed");
  let message = error instanceof Error ? error.message : String(error);
  // A gateway that is not running (`ask-user mcp`): say how to start one, as the CLI does.
  if (error instanceof GatewayError && error.reason === "unreachable") message = `${message} ${START_HINT}`;
  message = message.replace(/[.!?]\s*$/, "");
  return errorResult(
    `ask_user failed: ${message}. The question could not be asked; continue with your best judgment.`,
  );
}

/** The text of a tool result (its text parts joined). */
export function textOf(result: CallToolResult): string {
  return result.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
}
