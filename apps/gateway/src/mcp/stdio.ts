import process from "node:process";
import type { Readable, Writable } from "node:stream";
import { consoleLogger } from "@ask-user/core";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createMcpServer, type McpServerOptions } from "./server.ts";

/** Options of {@link runStdioServer}: the server's options plus the streams (default: the process's). */
export interface StdioServerOptions extends McpServerOptions {
  stdin?: Readable;
  stdout?: Writable;
}

/**
 * Serves the `ask_user` tool over stdio until stdin closes, then cancels calls still waiting and
 * resolves with the exit code (0). stdout carries the protocol only; logs go to the logger (stderr).
 *
 * @example
 * // `ask-user mcp`: the backend is a client of a running gateway (an `AskUserClient` is a `QuestionBackend`).
 * process.exitCode = await runStdioServer({ backend: createAskUserClient({ url, token, surface: "mcp" }) });
 */
export async function runStdioServer(options: StdioServerOptions): Promise<number> {
  const { stdin = process.stdin, stdout = process.stdout, ...serverOptions } = options;
  const logger = serverOptions.logger ?? consoleLogger;
  const server = createMcpServer(serverOptions);
  const transport = new StdioServerTransport(stdin, stdout);
  let finish = () => {};
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  // A client that goes away mid-write makes stdout fail with EPIPE: stop serving instead of crashing.
  const onStdoutError = (error: unknown) => {
    logger.warn({ err: error }, "MCP stdio: stdout failed, stopping");
    finish();
  };
  stdin.once("end", finish);
  stdin.once("close", finish);
  stdout.on("error", onStdoutError);
  server.onclose = finish;
  try {
    await server.connect(transport);
    await finished;
    await server.close();
  } finally {
    stdin.off("end", finish);
    stdin.off("close", finish);
    stdout.off("error", onStdoutError);
  }
  return 0;
}
