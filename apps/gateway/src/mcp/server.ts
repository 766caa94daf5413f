import { type AskUserLogger, type AskUserResult, consoleLogger, type Target } from "@ask-user/core";
// The low-level `Server` (which the SDK marks "for advanced use cases") rather than `McpServer`:
// `McpServer.registerTool` wants zod schemas, validates the arguments itself and lists a schema it
// regenerates from them. We want the tool listed with exactly core's JSON Schema (`askUserTool`) and the
// arguments judged by the backend's normaliser, whose issues carry the paths and sentences of SPEC §2.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { type CreateQuestionBody, type PublicQuestion, parseTarget } from "../api.ts";
import { BackendError, type QuestionBackend, waitForResult } from "../backend.ts";
import { askUserMcpTool, issuesText, resultText, splitArguments } from "./tool.ts";

/** Options of {@link createMcpServer}. */
export interface McpServerOptions {
  /** Where questions go: the gateway's broker in-process, or a running gateway's HTTP API. */
  backend: QuestionBackend;
  /** Used when a call gives no `target`; without either, the gateway decides (its default or web only). */
  defaultTarget?: Target | string;
  /** Reported to clients as the server version. */
  version?: string;
  /** Where problems are logged; never stdout (the stdio transport owns it). Defaults to stderr. */
  logger?: AskUserLogger;
  /** How often a waiting call sends `notifications/progress`, when the client asked for them. Default 10 s. */
  progressIntervalMs?: number;
  /** How long one backend wait may last before it is renewed. Default 10 s. */
  sliceSeconds?: number;
  /** First pause before asking a failed backend again while waiting (doubling up to 10 s). Default 1 s. */
  retryDelayMs?: number;
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

const DEFAULT_PROGRESS_INTERVAL_MS = 10_000;
/** How long `close()` waits for interrupted calls to cancel their questions. */
const CLOSE_GRACE_MS = 5_000;

/**
 * An MCP server with one tool, `ask_user`. A call creates the question through the backend, waits for
 * the answer (sending progress while it waits), and returns the result as `structuredContent` plus a
 * one-line summary. MCP cancellation — or the connection closing — cancels the question.
 *
 * @example
 * const server = createMcpServer({ backend, defaultTarget: "telegram:123456" });
 * await server.connect(new StdioServerTransport());
 */
export function createMcpServer(options: McpServerOptions): Server {
  const server = new AskUserMcpServer(
    { name: "ask-user", version: options.version ?? "0.1.0" },
    { capabilities: { tools: {} } },
  );
  const tool = askUserMcpTool();
  const defaultTarget = options.defaultTarget === undefined ? undefined : parseTarget(options.defaultTarget);
  if (options.defaultTarget !== undefined && defaultTarget === undefined) {
    throw new TypeError(`defaultTarget "${String(options.defaultTarget)}" is not "channel:conversation".`);
  }
  const call: CallContext = {
    backend: options.backend,
    defaultTarget,
    logger: options.logger ?? consoleLogger,
    progressIntervalMs: options.progressIntervalMs ?? DEFAULT_PROGRESS_INTERVAL_MS,
    sliceSeconds: options.sliceSeconds ?? 10,
    retryDelayMs: options.retryDelayMs ?? 1000,
  };

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [tool] }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    if (request.params.name !== tool.name) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool "${request.params.name}"; this server has ask_user.`,
      );
    }
    return server.track(callAskUser(call, request.params.arguments ?? {}, extra));
  });
  return server;
}

/** The SDK server, plus: `close()` lets interrupted calls finish cancelling their questions. */
class AskUserMcpServer extends Server {
  readonly #calls = new Set<Promise<unknown>>();

  track<T>(call: Promise<T>): Promise<T> {
    this.#calls.add(call);
    const forget = () => this.#calls.delete(call);
    call.then(forget, forget);
    return call;
  }

  override async close(): Promise<void> {
    await super.close();
    if (this.#calls.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, CLOSE_GRACE_MS);
      timer.unref();
    });
    await Promise.race([Promise.allSettled([...this.#calls]), grace]);
    clearTimeout(timer);
  }
}

interface CallContext {
  backend: QuestionBackend;
  defaultTarget: Target | undefined;
  logger: AskUserLogger;
  progressIntervalMs: number;
  sliceSeconds: number;
  retryDelayMs: number;
}

/** One `ask_user` call. Every outcome is a tool result: problems are `isError` results, never thrown. */
async function callAskUser(
  call: CallContext,
  args: Record<string, unknown>,
  extra: Extra,
): Promise<CallToolResult> {
  const split = splitArguments(args, call.defaultTarget);
  if (!split.ok) return errorResult(issuesText(split.issues));
  let question: PublicQuestion;
  try {
    const body: CreateQuestionBody = {
      questions: split.questions,
      ...optional("timeoutSeconds", split.timeoutSeconds),
    };
    if (split.target) body.target = split.target;
    if (split.locale) body.locale = split.locale;
    question = await call.backend.create(body, { signal: extra.signal });
  } catch (error) {
    return failure(call, error, "create");
  }
  const stopProgress = startProgress(call, question, extra);
  try {
    const result = await waitForResult(patientBackend(call, question), question, {
      signal: extra.signal,
      sliceSeconds: call.sliceSeconds,
    });
    return successResult(result, question);
  } catch (error) {
    return failure(call, error, "wait", question.id);
  } finally {
    stopProgress();
  }
}

function optional<K extends string>(key: K, value: unknown): Partial<Record<K, unknown>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, unknown>);
}

function successResult(result: AskUserResult, question: PublicQuestion): CallToolResult {
  return {
    content: [{ type: "text", text: resultText(result, question.prompt) }],
    structuredContent: result as unknown as Record<string, unknown>,
  };
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

/** A backend failure as a tool error: input issues listed for the model, anything else logged too. */
function failure(call: CallContext, error: unknown, step: string, questionId?: string): CallToolResult {
  if (error instanceof BackendError && error.status === 422) {
    return errorResult(
      issuesText(error.issues?.length ? error.issues : [{ path: "", message: error.message }]),
    );
  }
  if (error instanceof BackendError && error.status >= 400 && error.status < 500) {
    call.logger.warn({ status: error.status, code: error.reason, step, questionId }, error.message);
    return errorResult(`ask_user was refused (${error.reason}): ${error.message}`);
  }
  call.logger.error({ err: error, step, questionId }, "ask_user over MCP failed");
  const message = error instanceof Error ? error.message : String(error);
  return errorResult(
    `ask_user failed: ${message}. The question could not be asked; continue with your best judgment.`,
  );
}

/** The longest pause between two attempts to reach a backend that failed. */
const MAX_RETRY_DELAY_MS = 10_000;
/** How long after the question's deadline a backend that keeps failing is still retried. */
const RETRY_GRACE_MS = 60_000;

/**
 * The backend with a `get` that rides out a gateway restart or a network blip (status 0 or 5xx): the
 * question and its answer survive in the gateway's store, so the wait retries — with a growing pause —
 * until a minute past the question's deadline instead of failing the call.
 */
function patientBackend(call: CallContext, question: PublicQuestion): QuestionBackend {
  const { backend } = call;
  return {
    create: (body, options) => backend.create(body, options),
    cancel: (id) => backend.cancel(id),
    async get(id, options) {
      for (let attempt = 0; ; attempt++) {
        try {
          return await backend.get(id, options);
        } catch (error) {
          const transient = error instanceof BackendError && (error.status === 0 || error.status >= 500);
          if (!transient || options?.signal?.aborted || Date.now() > question.expiresAt + RETRY_GRACE_MS)
            throw error;
          call.logger.warn(
            { err: error, questionId: id, attempt },
            "waiting for the answer: backend failed, retrying",
          );
          await pause(Math.min(call.retryDelayMs * 2 ** attempt, MAX_RETRY_DELAY_MS), options?.signal);
        }
      }
    },
  };
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/**
 * Sends `notifications/progress` at once and then every interval while the call waits — only when the
 * client sent a progressToken. `progress` is seconds elapsed (one decimal, always increasing), `total`
 * the question's timeout in seconds. Clients that reset their request timeout on progress stay alive.
 */
function startProgress(call: CallContext, question: PublicQuestion, extra: Extra): () => void {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return () => {};
  const startedAt = Date.now();
  const total = question.prompt.timeoutSeconds;
  let last = -1;
  const send = () => {
    const progress = Math.round((Date.now() - startedAt) / 100) / 10;
    if (progress <= last || extra.signal.aborted) return;
    last = progress;
    const secondsLeft = Math.max(0, Math.ceil((question.expiresAt - Date.now()) / 1000));
    const message = `Waiting for an answer — ${clock(secondsLeft)} left`;
    extra
      .sendNotification({
        method: "notifications/progress",
        params: { progressToken, progress, total, message },
      })
      .catch((error: unknown) =>
        call.logger.warn({ err: error, questionId: question.id }, "progress not sent"),
      );
  };
  send();
  const timer = setInterval(send, call.progressIntervalMs);
  return () => clearInterval(timer);
}

/** `754` → `12:34`. */
export function clock(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, "0")}`;
}
