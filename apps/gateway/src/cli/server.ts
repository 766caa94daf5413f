import { type Command, connect, GATEWAY_OPTIONS, parse, URL_HELP } from "./command.ts";

/** `ask-user start`: runs the gateway in this process until it stops. */
export const startCommand: Command = {
  name: "start",
  summary: "run the gateway (HTTP API, MCP, web panel, channels) until stopped",
  help: `Usage: ask-user start

Runs the gateway in the foreground until Ctrl-C: the HTTP API and MCP endpoint, the web panel and the
configured channels (Telegram, Discord, Slack). It is configured through environment variables (see the
gateway's README); ASK_USER_TOKEN, when set, is the bearer token every client must send.

Options:
  -h, --help          show this help`,
  async run(args, context) {
    parse(args, { help: GATEWAY_OPTIONS.help }, false);
    const { runStart } = await import("../start.ts");
    return runStart(context.io);
  },
};

/** `ask-user mcp`: the `ask_user` tool over MCP stdio, forwarding to a running gateway. */
export const mcpCommand: Command = {
  name: "mcp",
  summary: "serve the ask_user tool over MCP stdio, backed by a running gateway",
  help: `Usage: ask-user mcp [options]

Serves the ask_user tool over MCP on stdin/stdout for an MCP client (Claude Code, Claude Desktop, …).
Each call is forwarded to the gateway, which delivers the question and collects the answer; stdout
carries only the protocol. An MCP client configuration, e.g.:
  {"command":"ask-user","args":["mcp"],"env":{"ASK_USER_URL":"http://127.0.0.1:7310","ASK_USER_TOKEN":"…"}}

Options:
${URL_HELP}
  -h, --help          show this help`,
  async run(args, context) {
    const { values } = parse(args, GATEWAY_OPTIONS, false);
    const { runStdioServer } = await import("../mcp/stdio.ts");
    return runStdioServer({ backend: connect(context, values.url, "mcp") });
  },
};
