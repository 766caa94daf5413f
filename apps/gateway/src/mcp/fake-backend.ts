import { gatewayError, type ListFilter, type QuestionOptions, type QuestionPage } from "@ask-user/client";
import {
  type Answers,
  type AskUserInput,
  InvalidAskUserInputError,
  normalizeAskUserInput,
  type QuestionRecord,
  toPublicQuestion,
} from "@ask-user/core";
import type { CreateQuestionBody, PublicQuestion } from "../api.ts";
import type { QuestionBackend } from "../backend.ts";

/**
 * An in-memory `QuestionBackend` for the MCP tests (free of any test framework): validates with core's
 * normaliser, waits like the HTTP API's long poll, lists in pages, and lets the test end questions.
 */
export class FakeBackend implements QuestionBackend {
  readonly records = new Map<string, QuestionRecord>();
  /** The API body of each `create` (the tool input plus where), as the HTTP client would send it. */
  readonly bodies: CreateQuestionBody[] = [];
  failure: Error | undefined;
  /** How many of the next `get` calls fail as if the gateway were restarting. */
  failingGets = 0;
  readonly #wake = new Set<() => void>();

  async create(input: AskUserInput, options: QuestionOptions = {}): Promise<PublicQuestion> {
    if (this.failure) throw this.failure;
    const { signal: _signal, ...where } = options;
    const body: CreateQuestionBody = { ...input, ...where };
    this.bodies.push(body);
    let prompt: QuestionRecord["prompt"];
    try {
      prompt = normalizeAskUserInput({ questions: body.questions, timeoutSeconds: body.timeoutSeconds });
    } catch (error) {
      if (!(error instanceof InvalidAskUserInputError)) throw error;
      throw gatewayError(422, "invalid_input", error.message, error.issues);
    }
    const now = Date.now();
    const record: QuestionRecord = {
      id: `q${this.records.size + 1}`,
      version: 1,
      prompt,
      answerers: { kind: "creator" },
      locale: "en",
      createdAt: now,
      expiresAt: now + prompt.timeoutSeconds * 1000,
      status: "pending",
      tokens: [],
      deliveries: [],
      ...(typeof body.target === "object" ? { target: body.target } : {}),
      ...(body.runId ? { runId: body.runId } : {}),
    };
    this.records.set(record.id, record);
    return toPublicQuestion(record);
  }

  async get(
    id: string,
    options: { waitSeconds?: number; signal?: AbortSignal } = {},
  ): Promise<PublicQuestion> {
    if (this.failingGets > 0) {
      this.failingGets--;
      throw gatewayError(0, "unreachable", "No ask-user gateway answers at http://127.0.0.1:7310.");
    }
    const record = this.#record(id);
    if (record.status === "pending" && options.waitSeconds && !options.signal?.aborted) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.#wake.delete(done);
          options.signal?.removeEventListener("abort", done);
          resolve();
        };
        const timer = setTimeout(done, (options.waitSeconds ?? 0) * 1000);
        this.#wake.add(done);
        options.signal?.addEventListener("abort", done);
      });
    }
    return toPublicQuestion(this.#record(id));
  }

  /** How many `get` calls are waiting now (long polls of calls and tasks waiting for an answer). */
  get waiting(): number {
    return this.#wake.size;
  }

  /** Cancels a pending question; an ended one is a 409, or returned as it is with `ifPending`. */
  async cancel(id: string, options: { ifPending?: boolean } = {}): Promise<PublicQuestion> {
    const before = this.#record(id).status;
    if (before !== "pending" && !options.ifPending) {
      throw gatewayError(409, before, `This question was ${before}.`);
    }
    this.end(id, "cancelled");
    return toPublicQuestion(this.#record(id));
  }

  async listPage({ cursor, limit = 100 }: ListFilter & { cursor?: string } = {}): Promise<QuestionPage> {
    const all = [...this.records.values()];
    const start = cursor === undefined ? 0 : Number(cursor);
    const page = all.slice(start, start + limit).map(toPublicQuestion);
    return start + limit < all.length
      ? { questions: page, nextCursor: String(start + limit) }
      : { questions: page };
  }

  /** The first pending question, once a call has created one (polls up to `timeoutMs`). */
  async nextPending(timeoutMs = 5000): Promise<QuestionRecord> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const pending = [...this.records.values()].find((r) => r.status === "pending");
      if (pending) return pending;
      if (Date.now() > until) throw new Error("no pending question appeared");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  answer(id: string, answers: Answers): void {
    this.end(id, "answered", answers);
  }

  end(id: string, status: Exclude<QuestionRecord["status"], "pending">, answers?: Answers): void {
    const record = this.#record(id);
    if (record.status !== "pending") return;
    const resolvedAt = Date.now();
    this.records.set(id, {
      ...record,
      status,
      resolvedAt,
      version: record.version + 1,
      ...(answers ? { answers } : {}),
    });
    for (const wake of [...this.#wake]) wake();
  }

  #record(id: string): QuestionRecord {
    const record = this.records.get(id);
    if (!record) throw gatewayError(404, "not_found", `No question ${id}.`);
    return record;
  }
}
