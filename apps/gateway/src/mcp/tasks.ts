import { QuestionNotFoundError } from "@ask-user/client";
import type { AskUserLogger } from "@ask-user/core";
import type { TaskStore } from "@modelcontextprotocol/sdk/experimental/tasks/interfaces.js";
import type { CallToolResult, Result, Task } from "@modelcontextprotocol/sdk/types.js";
import type { PublicQuestion } from "../api.ts";
import type { QuestionBackend } from "../backend.ts";
import { type AbortLike, withSignal } from "./abort.ts";
import { clock } from "./clock.ts";
import { waitUntilEnded } from "./patience.ts";
import { successResult } from "./results.ts";

/** Question ids as the broker makes them; any other task id is unknown (and never reaches a URL). */
const TASK_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Options of {@link createQuestionTaskStore}. */
export interface QuestionTaskStoreOptions {
  backend: QuestionBackend;
  logger: AskUserLogger;
  /** The `pollInterval` tasks carry: how often a client should ask `tasks/get`. */
  pollIntervalMs: number;
  /** How long ended questions are kept after their deadline (the gateway's retention); unknown: `ttl: null`. */
  retentionMs: number | undefined;
  /** How long one backend wait of `tasks/result` lasts before it is renewed (seconds). */
  sliceSeconds: number;
  retryDelayMs: number;
}

/**
 * MCP tasks (2025-11-25) over the question backend: the task IS the question. Task id = question id;
 * status, message and result are read from the backend each time, so a task outlives the MCP session
 * that created it and a gateway restart (with a durable store) — there is no task state in memory.
 * Implements the SDK's `TaskStore` (its protocol serves `tasks/get`, `tasks/result`, `tasks/list` and
 * `tasks/cancel` with it on the SDK server); the HTTP router calls the same methods. Tasks are not bound
 * to a session: whoever may reach the gateway's MCP endpoint may read any question anyway.
 */
export interface QuestionTaskStore extends TaskStore {
  /** Waits until the task ended and returns its tool result; `undefined` when `signal` aborted first. */
  waitForResult(taskId: string, signal: AbortLike): Promise<CallToolResult | undefined>;
  /** The task of a question as `tasks/get` shows it. */
  taskOf(question: PublicQuestion): Task;
  /** True when `tasks/list` is offered (the backend can list). */
  readonly canList: boolean;
}

export function createQuestionTaskStore(options: QuestionTaskStoreOptions): QuestionTaskStore {
  const { backend, logger } = options;

  const read = async (taskId: string): Promise<PublicQuestion | null> => {
    if (!TASK_ID.test(taskId)) return null;
    try {
      return await backend.get(taskId);
    } catch (error) {
      if (error instanceof QuestionNotFoundError) return null;
      throw error;
    }
  };

  const taskOf = (question: PublicQuestion): Task => ({
    taskId: question.id,
    status: taskStatus(question),
    statusMessage: statusMessage(question),
    createdAt: new Date(question.createdAt).toISOString(),
    lastUpdatedAt: new Date(question.resolvedAt ?? question.createdAt).toISOString(),
    ttl:
      options.retentionMs === undefined
        ? null
        : question.expiresAt - question.createdAt + options.retentionMs,
    pollInterval: options.pollIntervalMs,
  });

  return {
    canList: backend.listPage !== undefined,
    taskOf,
    async createTask() {
      throw new Error("ask_user tasks are created by a task-augmented tools/call, not by the task store.");
    },
    async storeTaskResult() {
      throw new Error("A task's result is its question's result; it is not stored separately.");
    },
    async getTask(taskId) {
      const question = await read(taskId);
      return question ? taskOf(question) : null;
    },
    async getTaskResult(taskId): Promise<Result> {
      const question = await read(taskId);
      if (!question) throw new Error(`Task not found: ${taskId}`);
      if (!question.result) throw new Error(`Task ${taskId} is still working.`);
      return successResult(question.result, question);
    },
    async updateTaskStatus(taskId, status) {
      if (status !== "cancelled") throw new Error(`Task ${taskId}: only cancelling is possible.`);
      if (!TASK_ID.test(taskId)) throw new Error(`Task not found: ${taskId}`);
      const question = await backend.cancel(taskId, { ifPending: true });
      logger.warn({ questionId: taskId, status: question.status }, "MCP task cancelled by the client");
    },
    async listTasks(cursor) {
      if (!backend.listPage) throw new Error("this server cannot list tasks.");
      const page = await backend.listPage(cursor === undefined ? {} : { cursor });
      return {
        tasks: page.questions.map(taskOf),
        ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }),
      };
    },
    async waitForResult(taskId, signal) {
      const question = await read(taskId);
      if (!question) throw new Error(`Task not found: ${taskId}`);
      const ended = backend.waitForEnd
        ? await backend.waitForEnd(taskId, signal)
        : await withSignal(signal, (real) => waitUntilEnded(backend, question, { ...options, signal: real }));
      return ended?.result ? successResult(ended.result, ended) : undefined;
    },
  };
}

/** `pending` → working; `cancelled` → cancelled; every other end (answered, skipped, …) → completed. */
function taskStatus(question: PublicQuestion): Task["status"] {
  if (question.status === "pending") return "working";
  return question.status === "cancelled" ? "cancelled" : "completed";
}

const CHANNEL_NAMES: Record<string, string> = { telegram: "Telegram", discord: "Discord", slack: "Slack" };

/**
 * What `tasks/get` says while a question waits or after it ended, e.g. `waiting for @alice on
 * Telegram, 12 min left`, `answered by @alice`, `expired`.
 */
export function statusMessage(question: PublicQuestion, now = Date.now()): string {
  if (question.status === "pending") {
    const who = question.creator?.displayName ?? question.creator?.userId;
    const channel = question.target?.channel;
    const where = channel ? ` on ${CHANNEL_NAMES[channel] ?? channel}` : " in the web panel";
    const secondsLeft = Math.max(0, Math.ceil((question.expiresAt - now) / 1000));
    const left = secondsLeft >= 120 ? `${Math.floor(secondsLeft / 60)} min` : clock(secondsLeft);
    return `waiting for ${who ?? "an answer"}${where}, ${left} left`;
  }
  const by = question.resolvedBy?.displayName ?? question.resolvedBy?.userId;
  if (question.status === "answered" || question.status === "skipped") {
    return by ? `${question.status} by ${by}` : question.status;
  }
  if (question.status === "undeliverable" && question.error) return `undeliverable: ${question.error}`;
  return question.status;
}
