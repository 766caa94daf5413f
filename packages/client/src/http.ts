import { errorFromNetwork, errorFromResponse, GatewayUnavailableError } from "./errors.ts";

/** How to reach the gateway; shared by every call of one client. */
export interface Connection {
  /** Base URL without a trailing slash. */
  base: string;
  token: string | undefined;
  fetch: typeof fetch;
  /** How long a request may take, beyond any long-poll wait it asked for. */
  requestTimeoutMs: number;
}

/** One JSON request. */
export interface RequestInitJson {
  method?: string;
  body?: unknown;
  signal?: AbortSignal | undefined;
  /** Seconds the gateway may hold the request (long-poll): added to the timeout. */
  holdSeconds?: number;
}

/** The headers of every request: JSON, and the bearer token when there is one. */
export function headersFor(
  connection: Connection,
  extra: Record<string, string> = {},
): Record<string, string> {
  const headers: Record<string, string> = { ...extra };
  if (connection.token) headers.authorization = `Bearer ${connection.token}`;
  return headers;
}

/**
 * Sends one request and parses the JSON answer. Throws a `GatewayError` subclass for an error
 * response and `GatewayUnavailableError` when no answer came; aborting `signal` rejects with its reason.
 */
export async function requestJson<T>(
  connection: Connection,
  path: string,
  init: RequestInitJson = {},
): Promise<T> {
  const headers = headersFor(connection, { accept: "application/json" });
  if (init.body !== undefined) headers["content-type"] = "application/json";
  const timeoutMs = connection.requestTimeoutMs + (init.holdSeconds ?? 0) * 1000;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
  const requestInit: RequestInit = { method: init.method ?? "GET", headers, signal };
  if (init.body !== undefined) requestInit.body = JSON.stringify(init.body);

  let response: Response;
  let text: string;
  try {
    response = await connection.fetch(`${connection.base}${path}`, requestInit);
    text = await response.text();
  } catch (error) {
    if (init.signal?.aborted) throw init.signal.reason;
    if (timeout.aborted) {
      const seconds = Math.round(timeoutMs / 1000);
      throw new GatewayUnavailableError(
        `The ask-user gateway at ${connection.base} did not answer within ${seconds} s.`,
        {
          status: 0,
          reason: "timeout",
        },
      );
    }
    throw errorFromNetwork(connection.base, error);
  }
  const body = parseJson(text);
  if (!response.ok) throw errorFromResponse(response.status, body);
  if (body === undefined) {
    throw new GatewayUnavailableError(`The gateway at ${connection.base} sent a response that is not JSON.`, {
      status: response.status,
      reason: "bad_response",
    });
  }
  return body as T;
}

function parseJson(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
