import {
  type AskUserClient,
  type AskUserClientOptions,
  createAskUserClient,
  GatewayError,
  type OperatorSurface,
  type QuestionPage,
  type WaitOptions,
} from "@ask-user/client";
import type { Answers, AskUserInput, QuestionStatus } from "@ask-user/core";
import type { CreateQuestionBody, PublicQuestion } from "./api.ts";
import { BackendError, type QuestionBackend } from "./backend.ts";

/** Where the CLI and `ask-user mcp` look for a gateway when neither `--url` nor `ASK_USER_URL` is set. */
export const DEFAULT_GATEWAY_URL = "http://127.0.0.1:7310";

/** `list` follows at most this many pages of 500 (five million questions): a bound, not a limit met. */
const MAX_LIST_PAGES = 10_000;

export interface HttpBackendOptions {
  /** The gateway's base URL, e.g. `http://127.0.0.1:7310`. */
  url: string;
  /** Sent as `Authorization: Bearer <token>`; never printed. */
  token?: string | undefined;
  /** Defaults to the global `fetch`. */
  fetch?: typeof fetch;
  /** The operator surface answers and skips are recorded under ("cli", "mcp"); the gateway's default is "http". */
  surface?: OperatorSurface | undefined;
}

/** Which questions `list` returns; every field is optional. */
export interface QuestionListFilter {
  status?: QuestionStatus | undefined;
  runId?: string | undefined;
}

/** A `QuestionBackend` over a running gateway's HTTP API, plus the operator calls the CLI needs. */
export interface HttpBackend extends QuestionBackend {
  /** The gateway's base URL, without a trailing slash (its web panel is at `${url}/`). */
  readonly url: string;
  /**
   * Cancels a pending question. By default a question that already ended is returned as it is (what
   * an aborted wait needs), and an unreachable gateway is asked again for up to 15 s; with `strict`,
   * an ended question throws the gateway's 409 with its reason.
   */
  cancel(id: string, options?: { strict?: boolean }): Promise<PublicQuestion>;
  /**
   * Waits until the question has ended and resolves with it (its `result` is set), riding out gateway
   * restarts and dropped connections (`options.retry`, `onRetry`, `onReconnect`). Aborting
   * `options.signal` stops waiting (rejects with its reason) and leaves the question as it is.
   */
  wait(id: string, options?: WaitOptions): Promise<PublicQuestion>;
  /** `GET /v1/questions`: the questions matching the filter (every page). */
  list(filter?: QuestionListFilter): Promise<PublicQuestion[]>;
  /** One page of `GET /v1/questions`, oldest first, with `nextCursor` when there is more. */
  listPage(page?: QuestionListFilter & { cursor?: string; limit?: number }): Promise<QuestionPage>;
  /** `POST /v1/questions/:id/answer`; 409 when it no longer waits, 422 with issues for bad answers. */
  answer(id: string, answers: Answers): Promise<PublicQuestion>;
  /**
   * `PUT /v1/questions/:id/draft`: stages one question's values in the shared draft (`[]` clears them);
   * 409 when it no longer waits, 422 with issues for bad values.
   */
  stage(id: string, question: string, values: readonly string[]): Promise<PublicQuestion>;
  /** `POST /v1/questions/:id/skip`; 409 when it no longer waits. */
  skip(id: string): Promise<PublicQuestion>;
  /** `GET /healthz`. */
  health(): Promise<{ ok: boolean }>;
}

/**
 * Talks to a running gateway over HTTP through `@ask-user/client` (the one HTTP client of the API).
 * Failed calls throw `BackendError`: the API's status, code, message and issues; status 0 with code
 * `unreachable` when nothing listens at the URL, `network` when the connection broke and `timeout`
 * when the gateway did not answer in time. An aborted call rejects with its signal's reason.
 *
 * @example
 * ```ts
 * const backend = createHttpBackend({ url: "http://127.0.0.1:7310", token: process.env.ASK_USER_TOKEN });
 * const question = await backend.create({ questions, target: "telegram:123456" });
 * const ended = await backend.wait(question.id);
 * ```
 */
export function createHttpBackend(options: HttpBackendOptions): HttpBackend {
  const clientOptions: AskUserClientOptions = { url: options.url, token: options.token };
  if (options.fetch) clientOptions.fetch = options.fetch;
  if (options.surface) clientOptions.surface = options.surface;
  const client: AskUserClient = createAskUserClient(clientOptions);
  const base = options.url.replace(/\/+$/, "");
  /** Runs a client call; its failure becomes a `BackendError` (the one place errors are mapped). */
  const call = async <T>(work: (c: AskUserClient) => Promise<T>): Promise<T> => {
    try {
      return await work(client);
    } catch (error) {
      throw toBackendError(error, base);
    }
  };

  return {
    url: base,
    create(body: CreateQuestionBody, createOptions = {}) {
      // The body is the API's create body (tool input, target, runId, …); the gateway judges all of it.
      const input = body as unknown as AskUserInput;
      const { signal } = createOptions;
      return call((c) => c.create(input, signal ? { signal } : {}));
    },
    get(id, getOptions = {}) {
      return call((c) => c.get(id, { signal: getOptions.signal, waitSeconds: getOptions.waitSeconds }));
    },
    wait(id, waitOptions = {}) {
      return call((c) => c.wait(id, waitOptions));
    },
    cancel(id, cancelOptions = {}) {
      return call((c) => c.cancel(id, { ifPending: !cancelOptions.strict }));
    },
    list(filter = {}) {
      return call(async (c) => {
        const out: PublicQuestion[] = [];
        let pages = 0;
        // The API hands out at most 500 at a time.
        for await (const page of c.list({ ...defined(filter), limit: 500 })) {
          out.push(...page.questions);
          if (++pages >= MAX_LIST_PAGES) break;
        }
        return out;
      });
    },
    listPage(page = {}) {
      return call((c) => c.listPage(defined(page)));
    },
    answer(id, answers) {
      return call((c) => c.answer(id, answers));
    },
    stage(id, question, values) {
      return call((c) => c.stage(id, question, values));
    },
    skip(id) {
      return call((c) => c.skip(id));
    },
    health() {
      return call((c) => c.health());
    },
  };
}

/** The filter without its undefined fields (the client's types are exact). */
function defined<T extends object>(filter: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };
}

/**
 * A client error as the `BackendError` the CLI and the MCP server know; anything else (an abort
 * reason) as it is. Nothing listening gets the advice how to start a gateway.
 */
function toBackendError(error: unknown, base: string): unknown {
  if (!(error instanceof GatewayError)) return error;
  const message =
    error.reason === "unreachable"
      ? `No ask-user gateway answers at ${base}. Start one with \`pnpm start\` (or set ASK_USER_URL).`
      : error.message;
  return new BackendError(
    error.status,
    error.reason,
    message,
    error.issues.length > 0 ? error.issues : undefined,
  );
}
