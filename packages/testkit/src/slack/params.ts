/** Reading Web API parameters: form-urlencoded or JSON bodies, with JSON string fields, and Slack errors. */

/** Parameters of one call, as sent (form values are strings; JSON bodies keep their types). */
export type Params = Record<string, unknown>;

/** A Slack platform error: `{ ok: false, error, …extra }` with HTTP 200 (or `status`). */
export class ApiError extends Error {
  constructor(
    readonly error: string,
    readonly extra: Record<string, unknown> = {},
    readonly status = 200,
  ) {
    super(error);
  }
}

/** An `invalid_blocks` / `invalid_arguments` error carrying Slack's `[ERROR] …` messages. */
export function validationError(error: string, problems: string[]): ApiError {
  const messages = problems.map((problem) => `[ERROR] ${problem}`);
  return new ApiError(error, { errors: problems, response_metadata: { messages } });
}

/** True for a plain JSON object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Parses a request body by its content type: `application/x-www-form-urlencoded` or `application/json`. */
export function parseBody(body: string, contentType: string): Params {
  if (body.trim() === "") return {};
  if (contentType.includes("application/json")) {
    const json: unknown = JSON.parse(body);
    if (!isObject(json)) throw new ApiError("invalid_json");
    return json;
  }
  if (contentType.includes("application/x-www-form-urlencoded") || contentType === "") {
    return Object.fromEntries(new URLSearchParams(body));
  }
  throw new ApiError("invalid_post_type");
}

/** An optional string parameter (numbers are read as strings, as Slack does). */
export function optStr(params: Params, name: string): string | undefined {
  const value = params[name];
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  throw new ApiError("invalid_arguments", { response_metadata: { messages: [`invalid \`${name}\``] } });
}

/** A required string parameter, or `error` (e.g. `channel_not_found`). */
export function reqStr(params: Params, name: string, error = "invalid_arguments"): string {
  const value = optStr(params, name);
  if (value === undefined) throw new ApiError(error);
  return value;
}

/** An optional boolean (`true`, `"true"`, `"1"`). */
export function optBool(params: Params, name: string): boolean | undefined {
  const value = params[name];
  if (value === undefined || value === null || value === "") return undefined;
  return value === true || value === "true" || value === "1" || value === 1;
}

/**
 * An optional JSON field (`blocks`, `view`): parsed from its JSON string, as the WebClient sends it.
 * Unparseable JSON → `error` (`invalid_blocks_format` for blocks).
 */
export function optJson(params: Params, name: string, error: string): unknown {
  const value = params[name];
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string") return value;
  try {
    const parsed: unknown = JSON.parse(value);
    params[name] = parsed;
    return parsed;
  } catch {
    throw new ApiError(error);
  }
}
