import type { Answers, QuestionStatus } from "@ask-user/core";
import type { ApiErrorBody, CreateQuestionBody, PublicQuestion, QuestionList } from "./api.ts";
import { BackendError, type QuestionBackend } from "./backend.ts";

/** Where the CLI and `ask-user mcp` look for a gateway when neither `--url` nor `ASK_USER_URL` is set. */
export const DEFAULT_GATEWAY_URL = "http://127.0.0.1:7310";

/** How long a request may take beyond the long-poll wait before the client gives up. */
const REQUEST_TIMEOUT_MS = 30_000;

/** Errors of the connection itself (as opposed to an answer from the gateway). */
const UNREACHABLE_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

export interface HttpBackendOptions {
  /** The gateway's base URL, e.g. `http://127.0.0.1:7310`. */
  url: string;
  /** Sent as `Authorization: Bearer <token>`; never printed. */
  token?: string | undefined;
  /** Defaults to the global `fetch`. */
  fetch?: typeof fetch;
  /** The operator surface answers and skips are recorded under ("cli", "mcp"); the gateway's default is "http". */
  surface?: string | undefined;
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
   * `waitForResult` needs); with `strict`, that case throws the gateway's 409 with its reason.
   */
  cancel(id: string, options?: { strict?: boolean }): Promise<PublicQuestion>;
  /** `GET /v1/questions`: the questions matching the filter. */
  list(filter?: QuestionListFilter): Promise<PublicQuestion[]>;
  /** `POST /v1/questions/:id/answer`; 409 when it no longer waits, 422 with issues for bad answers. */
  answer(id: string, answers: Answers): Promise<PublicQuestion>;
  /** `POST /v1/questions/:id/skip`; 409 when it no longer waits. */
  skip(id: string): Promise<PublicQuestion>;
  /** `GET /healthz`. */
  health(): Promise<{ ok: boolean }>;
}

interface RequestOptions {
  method?: string;
  body?: unknown;
  signal?: AbortSignal | undefined;
  /** Extra time the gateway may hold the request (long-poll). */
  waitSeconds?: number;
}

/**
 * Talks to a running gateway over HTTP. Failed calls throw `BackendError`: the API's status, code,
 * message and issues; status 0 with code `unreachable` when nothing listens at the URL, `network` when the
 * connection broke and `timeout` when the gateway did not answer in time.
 *
 * @example
 * ```ts
 * const backend = createHttpBackend({ url: "http://127.0.0.1:7310", token: process.env.ASK_USER_TOKEN });
 * const question = await backend.create({ questions, target: "telegram:123456" });
 * const result = await waitForResult(backend, question);
 * ```
 */
export function createHttpBackend(options: HttpBackendOptions): HttpBackend {
  const base = options.url.replace(/\/+$/, "");
  const doFetch = options.fetch ?? globalThis.fetch;
  const surface = options.surface ? { surface: options.surface } : {};

  async function request<T>(path: string, init: RequestOptions = {}): Promise<T> {
    const headers: Record<string, string> = { accept: "application/json" };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (init.body !== undefined) headers["content-type"] = "application/json";
    const timeoutMs = REQUEST_TIMEOUT_MS + (init.waitSeconds ?? 0) * 1000;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    const requestInit: RequestInit = { method: init.method ?? "GET", headers, signal };
    if (init.body !== undefined) requestInit.body = JSON.stringify(init.body);

    let response: Response;
    let text: string;
    try {
      response = await doFetch(`${base}${path}`, requestInit);
      text = await response.text();
    } catch (error) {
      if (init.signal?.aborted) throw init.signal.reason ?? error;
      if (timeout.aborted) {
        throw new BackendError(
          0,
          "timeout",
          `The ask-user gateway at ${base} did not answer within ${Math.round(timeoutMs / 1000)} s.`,
        );
      }
      throw networkError(base, error);
    }

    const body = parseJson(text);
    if (response.ok) {
      if (body === undefined) {
        throw new BackendError(
          response.status,
          "bad_response",
          `The gateway at ${base} sent a response that is not JSON.`,
        );
      }
      return body as T;
    }
    throw apiError(response.status, body);
  }

  const questionPath = (id: string) => `/v1/questions/${encodeURIComponent(id)}`;

  const backend: HttpBackend = {
    url: base,
    create(body: CreateQuestionBody) {
      return request<PublicQuestion>("/v1/questions", { method: "POST", body });
    },
    get(id, getOptions = {}) {
      const { waitSeconds, signal } = getOptions;
      if (waitSeconds === undefined || waitSeconds <= 0)
        return request<PublicQuestion>(questionPath(id), { signal });
      const wait = Math.ceil(waitSeconds);
      return request<PublicQuestion>(`${questionPath(id)}?wait=${wait}`, { signal, waitSeconds: wait });
    },
    async cancel(id, cancelOptions = {}) {
      try {
        return await request<PublicQuestion>(questionPath(id), { method: "DELETE" });
      } catch (error) {
        if (!cancelOptions.strict && error instanceof BackendError && error.status === 409) {
          return request<PublicQuestion>(questionPath(id));
        }
        throw error;
      }
    },
    async list(filter = {}) {
      const query = new URLSearchParams();
      if (filter.status) query.set("status", filter.status);
      if (filter.runId) query.set("runId", filter.runId);
      // Page through: the API hands out at most 500 at a time.
      query.set("limit", "500");
      const out: PublicQuestion[] = [];
      for (let cursor: string | undefined, pages = 0; pages < 10_000; pages++) {
        if (cursor) query.set("cursor", cursor);
        const list = await request<QuestionList>(`/v1/questions?${query.toString()}`);
        out.push(...list.questions);
        cursor = list.nextCursor;
        if (!cursor) break;
      }
      return out;
    },
    answer(id, answers) {
      return request<PublicQuestion>(`${questionPath(id)}/answer`, {
        method: "POST",
        body: { answers, ...surface },
      });
    },
    skip(id) {
      return request<PublicQuestion>(`${questionPath(id)}/skip`, { method: "POST", body: { ...surface } });
    },
    health() {
      return request<{ ok: boolean }>("/healthz");
    },
  };
  return backend;
}

function parseJson(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The `BackendError` for an error response; tolerates bodies that are not the API's error shape. */
function apiError(status: number, body: unknown): BackendError {
  const error = (body as Partial<ApiErrorBody> | undefined)?.error;
  if (error && typeof error.code === "string" && typeof error.message === "string") {
    const issues = Array.isArray(error.issues) ? error.issues : undefined;
    return new BackendError(status, error.code, error.message, issues);
  }
  return new BackendError(status, `http_${status}`, `The gateway answered with HTTP ${status}.`);
}

function networkError(base: string, error: unknown): BackendError {
  const code = causeCode(error);
  if (code !== undefined && UNREACHABLE_CODES.has(code)) {
    return new BackendError(
      0,
      "unreachable",
      `No ask-user gateway answers at ${base}. Start one with \`pnpm start\` (or set ASK_USER_URL).`,
    );
  }
  const reason = code ?? (error instanceof Error ? error.message : String(error));
  return new BackendError(
    0,
    "network",
    `The connection to the ask-user gateway at ${base} failed (${reason}).`,
  );
}

/** The system error code (`ECONNREFUSED`, …) of a failed fetch: undici wraps it in `cause`. */
function causeCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === "object" && current !== null; depth++) {
    const { code, cause, errors } = current as { code?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === "string" && /^E[A-Z]+$/.test(code)) return code;
    // Node reports a refused dual-stack connect as an AggregateError of one error per address.
    if (Array.isArray(errors) && errors.length > 0) current = errors[0];
    else current = cause;
  }
  return undefined;
}
