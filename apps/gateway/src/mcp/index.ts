/**
 * The gateway's MCP surface: the `ask_user` tool over stdio (`ask-user mcp`) and Streamable HTTP (`/mcp`).
 */
export { createMcpHttpHandler, type McpHttpHandler, type McpHttpHandlerOptions } from "./http.ts";
export { clock, createMcpServer, type McpServerOptions } from "./server.ts";
export { runStdioServer, type StdioServerOptions } from "./stdio.ts";
export { askUserMcpTool, askUserResultJsonSchema, resultText, TARGET_DESCRIPTION } from "./tool.ts";
