import {
  CallToolRequestSchema,
  CancelTaskRequestSchema,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  InitializeRequestSchema,
  type InitializeResult,
  type JSONRPCNotification,
  type JSONRPCRequest,
  LATEST_PROTOCOL_VERSION,
  ListTasksRequestSchema,
  RELATED_TASK_META_KEY,
  type Result,
  SUPPORTED_PROTOCOL_VERSIONS,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { AbortLike } from "./abort.ts";
import type { AskUserService } from "./ask.ts";
import type { SendProgress } from "./progress.ts";
import { ProtocolError, RPC } from "./results.ts";
import { mcpCapabilities, unknownTool } from "./server.ts";

/** What every request of the HTTP router is served with (one for all sessions). */
export interface RpcContext {
  service: AskUserService;
  tool: Tool;
  version: string;
}

/** One request's place: its session (the client), cancellation, and its response stream if any. */
export interface RequestScope {
  client: string;
  signal: AbortLike;
  /** Sends a notification on the request's event stream; absent when the response is plain JSON. */
  notify?: (message: JSONRPCNotification) => Promise<void>;
}

/** Requests whose answer may take long: they get an event stream when the client accepts one. */
export function waits(request: JSONRPCRequest): boolean {
  if (request.method === "tasks/result") return true;
  const params = request.params as { task?: unknown } | undefined;
  return request.method === "tools/call" && params?.task === undefined;
}

/** The result of `initialize`: the negotiated version, the capabilities and the server's name. */
export function initializeResult(ctx: RpcContext, request: JSONRPCRequest): InitializeResult {
  const parsed = parse(InitializeRequestSchema, request);
  const requested = parsed.params.protocolVersion;
  return {
    // The module's own string, not the request's copy: each session keeps it.
    protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.find((v) => v === requested) ?? LATEST_PROTOCOL_VERSION,
    capabilities: mcpCapabilities(ctx.service),
    serverInfo: { name: "ask-user", version: ctx.version },
  };
}

/**
 * Serves one JSON-RPC request of an open session; rejects with a {@link ProtocolError} for a JSON-RPC
 * error. Resolves with `undefined` when the request was cancelled (no response is sent for it); the
 * caller drops any result that comes after `scope.signal` aborted. Not an async function: a waiting
 * `tools/call` is the service's own promise, with no link of ours around it.
 */
export function dispatch(
  ctx: RpcContext,
  request: JSONRPCRequest,
  scope: RequestScope,
): Promise<Result | undefined> {
  try {
    return request.method === "tools/call" ? callTool(ctx, request, scope) : serve(ctx, request, scope);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** `tools/call`: the task at once, or the plain call's result when the question ended. */
function callTool(ctx: RpcContext, request: JSONRPCRequest, scope: RequestScope): Promise<Result> {
  const { params } = parse(CallToolRequestSchema, request);
  if (params.name !== ctx.tool.name) throw unknownTool(params.name);
  const args = params.arguments ?? {};
  if (params.task) return ctx.service.createTask(args);
  const progressToken = params._meta?.progressToken;
  const { signal, client, notify } = scope;
  // Nothing of the request is held while the call waits; a result that arrives after a cancellation
  // is dropped by the caller, which checks the signal.
  return ctx.service.call(args, {
    signal,
    client,
    ...(progressToken !== undefined && notify ? { progress: progressOf(notify, progressToken) } : {}),
  });
}

/** Sends `notifications/progress` for `progressToken` (made here: a function per call, without a name kept). */
function progressOf(
  notify: (message: JSONRPCNotification) => Promise<void>,
  progressToken: string | number,
): SendProgress {
  return (progress) =>
    notify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken, ...progress } });
}

/** Every request but `tools/call`. */
async function serve(
  ctx: RpcContext,
  request: JSONRPCRequest,
  scope: RequestScope,
): Promise<Result | undefined> {
  const { tasks } = ctx.service;
  switch (request.method) {
    case "ping":
      return {};
    case "initialize":
      throw new ProtocolError(RPC.invalidRequest, "This session is already initialized.");
    case "tools/list":
      return { tools: [ctx.tool] };
    case "tasks/get": {
      const { taskId } = parse(GetTaskRequestSchema, request).params;
      return { ...(await found(ctx, taskId)) };
    }
    case "tasks/result": {
      const { taskId } = parse(GetTaskPayloadRequestSchema, request).params;
      await found(ctx, taskId);
      const result = await tasks.waitForResult(taskId, scope.signal);
      if (!result) return undefined;
      return { ...result, _meta: { ...result._meta, [RELATED_TASK_META_KEY]: { taskId } } };
    }
    case "tasks/list": {
      if (!tasks.canList) throw new ProtocolError(RPC.methodNotFound, "Method not found: tasks/list");
      const cursor = parse(ListTasksRequestSchema, request).params?.cursor;
      try {
        return await tasks.listTasks(cursor);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        throw new ProtocolError(RPC.invalidParams, `Failed to list tasks: ${message}`);
      }
    }
    case "tasks/cancel": {
      const { taskId } = parse(CancelTaskRequestSchema, request).params;
      const task = await found(ctx, taskId);
      if (task.status !== "working" && task.status !== "input_required") {
        throw new ProtocolError(RPC.invalidParams, `Cannot cancel task in terminal status: ${task.status}`);
      }
      await tasks.updateTaskStatus(taskId, "cancelled");
      return { ...(await found(ctx, taskId)) };
    }
    default:
      throw new ProtocolError(RPC.methodNotFound, `Method not found: ${request.method}`);
  }
}

async function found(ctx: RpcContext, taskId: string) {
  const task = await ctx.service.tasks.getTask(taskId);
  if (!task) throw new ProtocolError(RPC.invalidParams, `Task not found: ${taskId}`);
  return task;
}

function parse<S extends z.ZodType>(schema: S, request: JSONRPCRequest): z.infer<S> {
  const parsed = schema.safeParse(request);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map(
    (issue) => `${issue.path.join(".") || "(request)"}: ${issue.message}`,
  );
  throw new ProtocolError(RPC.invalidParams, `Invalid params of ${request.method}: ${issues.join("; ")}`);
}
