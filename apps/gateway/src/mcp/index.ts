/**
 * The gateway's MCP surface: the `ask_user` tool over stdio (`ask-user mcp`) and Streamable HTTP (`/mcp`),
 * with MCP tasks (the task is the question).
 */
export { type CallChannel, DEFAULT_TIMEOUT_GRACE_MS, isClientTimeout } from "./ask.ts";
export {
  createMcpHttpHandler,
  type McpHttpHandler,
  type McpHttpHandlerOptions,
  type McpTransportSecurity,
} from "./http.ts";
export { CALL_BYTES, SESSION_BYTES } from "./http-sessions.ts";
export { clock, createMcpServer, type McpServerOptions } from "./server.ts";
export { runStdioServer, type StdioServerOptions } from "./stdio.ts";
export { statusMessage } from "./tasks.ts";
export { askUserMcpTool, askUserResultJsonSchema, resultText, TARGET_DESCRIPTION } from "./tool.ts";
