import type { Answers, PublicQuestion } from "@ask-user/core";

/** What an API call came back with: the status, the JSON body and the server's clock (from `Date`). */
export interface ApiResponse<T> {
  status: number;
  body: T | undefined;
  /** The server's time minus the browser's, in ms (0 when unknown). */
  clockOffsetMs: number;
}

/** The error body of every non-2xx answer. */
interface ApiErrorBody {
  error?: { code?: string; message?: string };
}

const TOKEN_KEY = "ask-user.token";

/**
 * The token: from `?token=` (then removed from the address bar, so it stays out of history and
 * bookmarks) or from this tab's session storage.
 */
export function initialToken(location: Location, history: History, storage: Storage): string | undefined {
  const url = new URL(location.href);
  const fromUrl = url.searchParams.get("token");
  if (fromUrl) {
    url.searchParams.delete("token");
    history.replaceState(null, "", url.pathname + url.search + url.hash);
    storage.setItem(TOKEN_KEY, fromUrl);
    return fromUrl;
  }
  return storage.getItem(TOKEN_KEY) ?? undefined;
}

/** Remembers (or forgets) the token for this tab. */
export function storeToken(storage: Storage, token: string | undefined): void {
  if (token === undefined) storage.removeItem(TOKEN_KEY);
  else storage.setItem(TOKEN_KEY, token);
}

/** A small client of the gateway's HTTP API; every call carries `Authorization: Bearer` when a token is set. */
export class GatewayApi {
  constructor(public token: string | undefined) {}

  async call<T>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { accept: "application/json" };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    const init: RequestInit = { method, headers, cache: "no-store" };
    if (body !== undefined) {
      headers["content-type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const response = await fetch(path, init);
    const text = await response.text();
    let parsed: T | undefined;
    try {
      parsed = text ? (JSON.parse(text) as T) : undefined;
    } catch {
      parsed = undefined;
    }
    const date = Date.parse(response.headers.get("date") ?? "");
    const offset = Number.isNaN(date) ? 0 : date - Date.now();
    // The Date header has a resolution of one second: only trust a larger difference.
    return { status: response.status, body: parsed, clockOffsetMs: Math.abs(offset) > 2_000 ? offset : 0 };
  }

  /** One page of the list (`cursor` from the previous page's `nextCursor`). */
  list(cursor?: string): Promise<ApiResponse<{ questions: PublicQuestion[]; nextCursor?: string }>> {
    const query = cursor === undefined ? "" : `&cursor=${encodeURIComponent(cursor)}`;
    return this.call("GET", `/v1/questions?limit=200${query}`);
  }

  answer(id: string, answers: Answers): Promise<ApiResponse<PublicQuestion & ApiErrorBody>> {
    return this.call("POST", `/v1/questions/${encodeURIComponent(id)}/answer`, { answers, surface: "web" });
  }

  /** Stages one question's values in the shared draft (`[]` clears them); nothing is answered. */
  stage(id: string, question: string, values: string[]): Promise<ApiResponse<PublicQuestion & ApiErrorBody>> {
    return this.call("PUT", `/v1/questions/${encodeURIComponent(id)}/draft`, {
      question,
      values,
      surface: "web",
    });
  }

  skip(id: string): Promise<ApiResponse<PublicQuestion & ApiErrorBody>> {
    return this.call("POST", `/v1/questions/${encodeURIComponent(id)}/skip`, { surface: "web" });
  }

  /** The event stream; EventSource cannot send headers, so the token goes in the query. */
  events(): EventSource {
    const query = this.token ? `?token=${encodeURIComponent(this.token)}` : "";
    return new EventSource(`/v1/events${query}`);
  }
}

/** The message of an error body, if there is one. */
export function errorMessage(body: unknown): string | undefined {
  const message = (body as ApiErrorBody | undefined)?.error?.message;
  return typeof message === "string" ? message : undefined;
}
