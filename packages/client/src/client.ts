import type { Answers, AskUserInput, AskUserResult } from "@ask-user/core";
import { Backoff, type RetryOptions } from "./backoff.ts";
import { isRetryable, QuestionNotPendingError } from "./errors.ts";
import { type EventsOptions, streamEvents } from "./events.ts";
import { type Connection, requestJson } from "./http.ts";
import type { GatewayEvent, ListFilter, PublicQuestion, QuestionOptions, QuestionPage } from "./types.ts";
import { questionPath, readQuestion, type WaitOptions, waitUntilEnded } from "./wait.ts";

/** The operator surfaces the gateway records answers and skips under (its default is `http`). */
export type OperatorSurface = "http" | "web" | "cli" | "mcp";

/** Options of {@link createAskUserClient}. */
export interface AskUserClientOptions {
  /** The gateway's base URL, e.g. `http://127.0.0.1:7310`. */
  url: string;
  /** The gateway's `ASK_USER_TOKEN`, sent as `Authorization: Bearer` (none when undefined). */
  token?: string | undefined;
  /** Defaults to the global `fetch`. */
  fetch?: typeof fetch;
  /** How answers and skips sent through this client are signed: shown as "<name> via HTTP API". */
  name?: string;
  /**
   * The surface answers and skips sent through this client are recorded under ("alice via CLI");
   * the gateway's default is `http` ("via HTTP API").
   */
  surface?: OperatorSurface;
  /** How long a request may take, beyond any long-poll wait (default 30 000 ms). */
  requestTimeoutMs?: number;
  /** How long one long-poll of `wait` and `ask` lasts, 1-300 s (default 25). */
  waitSliceSeconds?: number;
  /** How `wait`, `ask` and `events` ride out a gateway restart or a network drop. */
  retry?: RetryOptions;
}

/** The gateway's HTTP API, typed. Every failure is a `GatewayError` (an `AskUserError`). */
export interface AskUserClient {
  /** The gateway's base URL, without a trailing slash (its web panel is at `${url}/`). */
  readonly url: string;
  /**
   * Asks and waits: creates the question, long-polls until it ends (across gateway restarts and
   * network drops) and resolves with the agent's result. Aborting `options.signal` cancels the
   * question at any moment and resolves with `{ status: "no_answer", reason: "cancelled" }` (or the
   * result it had already got).
   */
  ask(input: AskUserInput, options?: QuestionOptions): Promise<AskUserResult>;
  /** `POST /v1/questions`: creates and delivers a question; resolves with it (pending, or undeliverable). */
  create(input: AskUserInput, options?: QuestionOptions): Promise<PublicQuestion>;
  /**
   * `GET /v1/questions/:id`. With `waitSeconds` (1-300), one long-poll: the gateway answers as soon as
   * the question ends, or with it still pending after that long. Not retried (`wait` is).
   */
  get(
    id: string,
    options?: { signal?: AbortSignal | undefined; waitSeconds?: number | undefined },
  ): Promise<PublicQuestion>;
  /** Long-polls until the question has ended; resolves with it (its `result` is set). */
  wait(id: string, options?: WaitOptions): Promise<PublicQuestion>;
  /** `POST /v1/questions/:id/answer` with `{ <question id>: [values] }`: option labels (any case) or free text. */
  answer(id: string, answers: Answers): Promise<PublicQuestion>;
  /**
   * `PUT /v1/questions/:id/draft`: stages one question's values in the question's shared draft (what
   * the chat forms, the web panel and the CLI show as chosen) without answering; `[]` clears them.
   * Values as `answer` takes them; `other: …` marks your own words. Signed like `answer`.
   */
  stage(id: string, question: string, values: readonly string[]): Promise<PublicQuestion>;
  /** `POST /v1/questions/:id/skip`. */
  skip(id: string): Promise<PublicQuestion>;
  /**
   * `DELETE /v1/questions/:id`: cancels a pending question; one that already ended is a
   * `QuestionNotPendingError`. With `ifPending`, that question is returned as it is instead (an answer
   * that won the race is kept), and an unreachable gateway is asked again for up to 15 s.
   */
  cancel(id: string, options?: { ifPending?: boolean }): Promise<PublicQuestion>;
  /** One page of `GET /v1/questions`, oldest first; pass the previous page's `nextCursor` as `cursor`. */
  listPage(filter?: ListFilter & { cursor?: string }): Promise<QuestionPage>;
  /** Every page of `GET /v1/questions`, oldest first, following `nextCursor`. */
  list(filter?: ListFilter): AsyncIterableIterator<QuestionPage>;
  /** `GET /v1/events`: question events as they happen, with `Last-Event-ID` resume across reconnects. */
  events(options?: EventsOptions): AsyncIterableIterator<GatewayEvent>;
  /** `GET /healthz`: `{ ok, draining, … }`; a gateway that is not ok answers 503 (`GatewayUnavailableError`). */
  health(): Promise<{ ok: boolean; draining?: boolean } & Record<string, unknown>>;
}

const CANCELLED: AskUserResult = { status: "no_answer", reason: "cancelled" };
/** A cancel after an abort is retried this long at most while the gateway is unreachable. */
const CANCEL_OUTAGE_MS = 15_000;

/**
 * A client for a running gateway's HTTP API on `fetch` (no other runtime dependency).
 *
 * @example
 * ```ts
 * const client = createAskUserClient({ url: "http://127.0.0.1:7310", token: process.env.ASK_USER_TOKEN });
 * const result = await client.ask(input, { target: "telegram:123456", signal: run.signal });
 * ```
 */
export function createAskUserClient(options: AskUserClientOptions): AskUserClient {
  const connection: Connection = {
    base: options.url.replace(/\/+$/, ""),
    token: options.token,
    fetch: options.fetch ?? globalThis.fetch,
    requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
  };
  const signature = {
    ...(options.name === undefined ? {} : { name: options.name }),
    ...(options.surface === undefined ? {} : { surface: options.surface }),
  };
  const waitDefaults: WaitOptions = {};
  if (options.waitSliceSeconds !== undefined) waitDefaults.sliceSeconds = options.waitSliceSeconds;
  if (options.retry !== undefined) waitDefaults.retry = options.retry;

  const request = <T>(path: string, init?: Parameters<typeof requestJson>[2]) =>
    requestJson<T>(connection, path, init);

  /** Cancels; a question that ended meanwhile is returned as it is. Retried briefly while unreachable. */
  async function cancelOrRead(id: string): Promise<PublicQuestion> {
    const backoff = new Backoff({
      ...options.retry,
      maxOutageMs: Math.min(options.retry?.maxOutageMs ?? CANCEL_OUTAGE_MS, CANCEL_OUTAGE_MS),
    });
    for (;;) {
      try {
        return await request<PublicQuestion>(questionPath(id), { method: "DELETE" });
      } catch (error) {
        if (error instanceof QuestionNotPendingError) return client.get(id);
        if (!isRetryable(error)) throw error;
        await backoff.pause(error, undefined);
      }
    }
  }

  const client: AskUserClient = {
    url: connection.base,
    async ask(input, askOptions = {}) {
      const { signal } = askOptions;
      if (signal?.aborted) return CANCELLED;
      const question = await client.create(input, askOptions);
      if (question.result) return question.result;
      try {
        const ended = await client.wait(question.id, signal ? { signal } : {});
        return ended.result ?? CANCELLED;
      } catch (error) {
        if (!signal?.aborted) throw error;
        return (await client.cancel(question.id, { ifPending: true })).result ?? CANCELLED;
      }
    },
    async create(input, createOptions = {}) {
      const { signal, ...where } = createOptions;
      // Sent without the signal: an aborted request could still create a question nobody knows of.
      const question = await request<PublicQuestion>("/v1/questions", {
        method: "POST",
        body: { ...input, ...where },
      });
      if (signal?.aborted && question.status === "pending")
        return client.cancel(question.id, { ifPending: true });
      return question;
    },
    get(id, getOptions = {}) {
      return readQuestion(connection, id, getOptions);
    },
    wait(id, waitOptions = {}) {
      return waitUntilEnded(connection, id, { ...waitDefaults, ...waitOptions });
    },
    answer(id, answers) {
      return request<PublicQuestion>(`${questionPath(id)}/answer`, {
        method: "POST",
        body: { answers, ...signature },
      });
    },
    stage(id, question, values) {
      return request<PublicQuestion>(`${questionPath(id)}/draft`, {
        method: "PUT",
        body: { question, values, ...signature },
      });
    },
    skip(id) {
      return request<PublicQuestion>(`${questionPath(id)}/skip`, { method: "POST", body: { ...signature } });
    },
    cancel(id, cancelOptions = {}) {
      if (cancelOptions.ifPending) return cancelOrRead(id);
      return request<PublicQuestion>(questionPath(id), { method: "DELETE" });
    },
    listPage(filter = {}) {
      const query = new URLSearchParams();
      if (filter.status !== undefined) query.set("status", filter.status);
      if (filter.runId !== undefined) query.set("runId", filter.runId);
      if (filter.limit !== undefined) query.set("limit", String(filter.limit));
      if (filter.cursor !== undefined) query.set("cursor", filter.cursor);
      const search = query.size > 0 ? `?${query.toString()}` : "";
      return request<QuestionPage>(`/v1/questions${search}`);
    },
    async *list(filter = {}) {
      let cursor: string | undefined;
      do {
        const page = await client.listPage(cursor === undefined ? filter : { ...filter, cursor });
        yield page;
        cursor = page.nextCursor;
      } while (cursor !== undefined);
    },
    events(eventOptions = {}) {
      const merged: EventsOptions = { ...eventOptions };
      if (merged.retry === undefined && options.retry !== undefined) merged.retry = options.retry;
      return streamEvents(connection, merged);
    },
    health() {
      return request("/healthz");
    },
  };
  return client;
}
