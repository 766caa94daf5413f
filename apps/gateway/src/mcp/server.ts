// The low-level `Server` (which the SDK marks "for advanced use cases") rather than `McpServer`:
// `McpServer.registerTool` wants zod schemas, validates the arguments itself and lists a schema it
// regenerates from them. We want the tool listed with exactly core's JSON Schema (`askUserTool`) and the
// arguments judged by the backend's normaliser, whose issues carry the paths and sentences of SPEC §2.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type ServerCapabilities,
} from "@modelcontextprotocol/sdk/types.js";
import { type AskUserService, createAskUserService, type McpServerOptions, newClientId } from "./ask.ts";
import { ProtocolError, RPC } from "./results.ts";
import { askUserMcpTool } from "./tool.ts";

export type { McpServerOptions } from "./ask.ts";
export { clock } from "./clock.ts";

/** How long `close()` waits for interrupted calls to cancel their questions. */
const CLOSE_GRACE_MS = 5_000;

/** What the server offers: the tool, and tasks for `tools/call` (listing when the backend can list). */
export function mcpCapabilities(service: AskUserService): ServerCapabilities {
  return {
    tools: {},
    tasks: {
      ...(service.tasks.canList ? { list: {} } : {}),
      cancel: {},
      requests: { tools: { call: {} } },
    },
  };
}

/** The error of a `tools/call` for another tool than ask_user (one clean message, code -32602). */
export function unknownTool(name: string): ProtocolError {
  return new ProtocolError(RPC.invalidParams, `Unknown tool "${name}"; this server has ask_user.`);
}

/**
 * An MCP server (the SDK's `Server`, for stdio and in-process transports) with one tool, `ask_user`. A
 * plain call creates the question through the backend, waits for the answer (sending progress while it
 * waits), and returns the result as `structuredContent` plus a one-line summary. A task-augmented call
 * (MCP tasks, 2025-11-25) returns the question as a task at once; the SDK serves `tasks/get`,
 * `tasks/result`, `tasks/list` and `tasks/cancel` over the backend. Cancellation — or the connection
 * closing — cancels the question of a plain call, except after the client's own request timeout (see
 * `timeoutGraceMs`).
 *
 * @example
 * const server = createMcpServer({ backend, defaultTarget: "telegram:123456" });
 * await server.connect(new StdioServerTransport());
 */
export function createMcpServer(options: McpServerOptions): Server {
  const service = createAskUserService(options);
  const server = new AskUserMcpServer(
    service,
    { name: "ask-user", version: options.version ?? "0.1.0" },
    { capabilities: mcpCapabilities(service), taskStore: service.tasks },
  );
  const tool = askUserMcpTool();
  const client = newClientId();

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [tool] }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    if (request.params.name !== tool.name) throw unknownTool(request.params.name);
    const args = request.params.arguments ?? {};
    if (request.params.task) return service.createTask(args);
    const progressToken = extra._meta?.progressToken;
    return server.track(
      service.call(args, {
        signal: extra.signal,
        client,
        ...(progressToken === undefined
          ? {}
          : {
              progress: (params) =>
                extra.sendNotification({
                  method: "notifications/progress",
                  params: { progressToken, ...params },
                }),
            }),
      }),
    );
  });
  return server;
}

/** The SDK server, plus: `close()` lets interrupted calls finish cancelling their questions. */
class AskUserMcpServer extends Server {
  readonly #calls = new Set<Promise<unknown>>();
  readonly #service: AskUserService;

  constructor(service: AskUserService, ...args: ConstructorParameters<typeof Server>) {
    super(...args);
    this.#service = service;
  }

  track<T>(call: Promise<T>): Promise<T> {
    this.#calls.add(call);
    const forget = () => this.#calls.delete(call);
    call.then(forget, forget);
    return call;
  }

  override async close(): Promise<void> {
    await super.close();
    if (this.#calls.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, CLOSE_GRACE_MS);
        timer.unref();
      });
      await Promise.race([Promise.allSettled([...this.#calls]), grace]);
      clearTimeout(timer);
    }
    await this.#service.close();
  }
}
