import { createHash, randomUUID } from "node:crypto";
import type { QuestionOptions } from "@ask-user/client";
import { type AskUserInput, type AskUserLogger, consoleLogger, type Target } from "@ask-user/core";
import type { CallToolResult, CreateTaskResult } from "@modelcontextprotocol/sdk/types.js";
import { type PublicQuestion, parseTarget } from "../api.ts";
import type { QuestionBackend } from "../backend.ts";
import { type AbortLike, withSignal } from "./abort.ts";
import { createParking } from "./parking.ts";
import { waitUntilEnded } from "./patience.ts";
import { createProgressTicker, type SendProgress, type WaitingQuestion } from "./progress.ts";
import { errorResult, failureResult, ProtocolError, RPC, successResult, textOf } from "./results.ts";
import { createQuestionTaskStore, type QuestionTaskStore } from "./tasks.ts";
import { issuesText, type SplitArguments, splitArguments } from "./tool.ts";

/** Options of the MCP servers (stdio and Streamable HTTP); every one but `backend` has a default. */
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
  /**
   * How long a question stays pending after the client gave up on the call because of its own request
   * timeout (a cancellation whose reason says "timed out" / "timeout"), so that the same call repeated
   * resumes it. 0 cancels at once. Default 2 minutes.
   */
  timeoutGraceMs?: number;
  /** The `pollInterval` of tasks: how often a client should ask `tasks/get`. Default 2 s. */
  taskPollIntervalMs?: number;
  /** The gateway's retention of ended questions, for the tasks' `ttl`; unknown (default): `ttl: null`. */
  taskRetentionMs?: number;
}

/** How one call reaches its client: cancellation, progress, and who is calling. */
export interface CallChannel {
  /**
   * Aborts when the client cancels the call or goes away; the reason tells a timeout from an abort. An
   * `AbortSignal`, or the lighter `CallAbort` of the HTTP router.
   */
  signal: AbortLike;
  /** Sends one `notifications/progress`; absent when the client sent no progressToken. */
  progress?: SendProgress;
  /** The client (an HTTP session id, or one stdio server): whose parked calls this call may resume. */
  client: string;
}

/** The `ask_user` tool, independent of the transport: plain calls, task creation and the task store. */
export interface AskUserService {
  /** One plain `ask_user` call: waits for the answer. Problems are `isError` results, never thrown. */
  call(args: Record<string, unknown>, channel: CallChannel): Promise<CallToolResult>;
  /** A task-augmented call: creates the question and returns its task at once; bad input throws -32602. */
  createTask(args: Record<string, unknown>): Promise<CreateTaskResult>;
  readonly tasks: QuestionTaskStore;
  /** Cancels the questions of calls parked after a client timeout (nobody will resume them). */
  close(): Promise<void>;
}

export const DEFAULT_TIMEOUT_GRACE_MS = 120_000;
/** How long a repeated call waits for the cancellation of the identical call still waiting (a race). */
const RESUME_WAIT_MS = 1000;

/**
 * True when a cancellation's reason is the client's own request timeout. The TypeScript SDK sends
 * `McpError: MCP error -32001: Request timed out` (or `… Maximum total timeout exceeded`); an
 * `AbortSignal.timeout()` gives `TimeoutError: … due to timeout`. Any other reason is a real abort.
 */
export function isClientTimeout(reason: unknown): boolean {
  if (reason === undefined || reason === null) return false;
  const text = reason instanceof Error ? `${reason.name}: ${reason.message}` : String(reason);
  return /\btimed out\b|\btimeout\b/i.test(text);
}

export function createAskUserService(options: McpServerOptions): AskUserService {
  const backend = options.backend;
  const logger = options.logger ?? consoleLogger;
  const defaultTarget = options.defaultTarget === undefined ? undefined : parseTarget(options.defaultTarget);
  if (options.defaultTarget !== undefined && defaultTarget === undefined) {
    throw new TypeError(`defaultTarget "${String(options.defaultTarget)}" is not "channel:conversation".`);
  }
  const progressIntervalMs = options.progressIntervalMs ?? 10_000;
  const wait = {
    sliceSeconds: options.sliceSeconds ?? 10,
    retryDelayMs: options.retryDelayMs ?? 1000,
    logger,
  };
  const graceMs = options.timeoutGraceMs ?? DEFAULT_TIMEOUT_GRACE_MS;
  const parking = createParking(backend, logger, graceMs);
  const ticker = createProgressTicker(progressIntervalMs, logger);
  const tasks = createQuestionTaskStore({
    backend,
    pollIntervalMs: options.taskPollIntervalMs ?? 2000,
    retentionMs: options.taskRetentionMs,
    ...wait,
  });

  const create = (split: Extract<SplitArguments, { ok: true }>, signal?: AbortLike) => {
    // The tool input as the model wrote it: the backend (the gateway) judges it and lists its issues.
    const input = { questions: split.questions } as AskUserInput;
    if (split.timeoutSeconds !== undefined) input.timeoutSeconds = split.timeoutSeconds as number;
    const options: QuestionOptions = {};
    if (split.target) options.target = split.target;
    if (split.locale) options.locale = split.locale;
    if (split.runId) options.runId = split.runId;
    if (!signal) return backend.create(input, options);
    return withSignal(signal, (real) => backend.create(input, { ...options, signal: real }));
  };

  /** The question of a call: resumed from a parked call, or created; a tool error when that failed. */
  const questionOf = async (
    args: Record<string, unknown>,
    channel: CallChannel,
  ): Promise<{ key: string; question: WaitingQuestion } | { failed: CallToolResult }> => {
    const split = splitArguments(args, defaultTarget);
    if (!split.ok) return { failed: errorResult(issuesText(split.issues)) };
    const key = parkingKey(channel.client, split.runId, args);
    const parked = await parking.resume(key, graceMs > 0 ? RESUME_WAIT_MS : 0);
    if (parked) return { key, question: parked };
    try {
      return { key, question: waitingOf(await create(split, channel.signal)) };
    } catch (error) {
      return { failed: failureResult(logger, error, "create") };
    }
  };

  /** The question's end: one shared wait when the backend offers it, else slices of long polls. */
  const ended = (question: WaitingQuestion, signal: AbortLike): Promise<PublicQuestion | undefined> => {
    if (backend.waitForEnd) return backend.waitForEnd(question.id, signal);
    return withSignal(signal, (real) => waitUntilEnded(backend, question, { ...wait, signal: real }));
  };

  /** The tool result once the wait ended: the answer, or the cancelled call's question parked or cancelled. */
  const afterWait = async (
    key: string,
    question: WaitingQuestion,
    signal: AbortLike,
    end: PublicQuestion | undefined,
  ): Promise<CallToolResult> => {
    if (end?.result) return successResult(end.result, end);
    // The client cancelled or went away: park the question after a timeout, cancel it otherwise.
    if (graceMs > 0 && isClientTimeout(signal.reason)) parking.park(key, question);
    else await backend.cancel(question.id, { ifPending: true });
    return errorResult("ask_user was cancelled.");
  };

  /**
   * Waits for the answer with as little held per call as possible (ten thousand may wait): the
   * question's id, deadline and timeout, a slot of the shared progress timer, a parking count, and one
   * promise reaction (not an async function: no suspended frame while it waits).
   */
  const answerOf = (
    key: string,
    question: WaitingQuestion,
    channel: CallChannel,
  ): Promise<CallToolResult> => {
    const { signal } = channel;
    const stopProgress = channel.progress ? ticker.start(question, channel.progress, signal) : noop;
    const done = parking.waiting(key);
    return ended(question, signal).then(
      (end) =>
        afterWait(key, question, signal, end)
          .catch((error: unknown) => failureResult(logger, error, "wait", question.id))
          .finally(() => {
            done();
            stopProgress();
          }),
      (error: unknown) => {
        done();
        stopProgress();
        return failureResult(logger, error, "wait", question.id);
      },
    );
  };

  return {
    tasks,
    async call(args, channel) {
      const ready = await questionOf(args, channel);
      // Returned, not awaited: nothing of the arguments stays held while the call waits.
      return "failed" in ready ? ready.failed : answerOf(ready.key, ready.question, channel);
    },
    async createTask(args) {
      const split = splitArguments(args, defaultTarget);
      if (!split.ok) throw new ProtocolError(RPC.invalidParams, issuesText(split.issues));
      try {
        return { task: tasks.taskOf(await create(split)) };
      } catch (error) {
        const failed = failureResult(logger, error, "create task");
        throw new ProtocolError(RPC.invalidParams, textOf(failed));
      }
    },
    close: () => parking.close(),
  };
}

const noop = () => {};

/** What a waiting call keeps of its question. */
function waitingOf(question: PublicQuestion): WaitingQuestion {
  return { id: question.id, expiresAt: question.expiresAt, timeoutSeconds: question.prompt.timeoutSeconds };
}

/** Who may resume a parked call: the same runId (any session) or the same client, with the same input. */
function parkingKey(client: string, runId: string | undefined, args: Record<string, unknown>): string {
  const hash = createHash("sha256").update(canonicalJson(args)).digest("base64url");
  return runId === undefined ? `client:${client}:${hash}` : `run:${runId}:${hash}`;
}

/** JSON with object keys sorted, so that the same input written in another key order is the same call. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** A fresh client identity, for a server that serves one client (stdio, an in-memory pair). */
export function newClientId(): string {
  return randomUUID();
}
