/** Reading Bot API parameters that arrive as JSON values or as form strings. */

/** Parameters of one call: a JSON body, or form/query fields (strings, nested objects as JSON text). */
export type Params = Record<string, unknown>;

/** An error answer of the Bot API: `{ ok: false, error_code, description, parameters? }`. */
export class ApiError extends Error {
  constructor(
    readonly errorCode: number,
    readonly description: string,
    readonly parameters?: { retry_after?: number },
  ) {
    super(description);
    this.name = "ApiError";
  }
}

/** A 400 with Telegram's "Bad Request: " prefix. */
export function badRequest(what: string): ApiError {
  return new ApiError(400, `Bad Request: ${what}`);
}

/** An optional integer parameter (number or numeric string). */
export function optInt(params: Params, name: string): number | undefined {
  const value = params[name];
  if (value === undefined || value === null || value === "") return undefined;
  const n = typeof value === "number" ? value : typeof value === "string" ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n)) throw badRequest(`invalid ${name} specified`);
  return n;
}

/** A required integer parameter; missing → "Bad Request: <name> is empty". */
export function int(params: Params, name: string): number {
  const n = optInt(params, name);
  if (n === undefined) throw badRequest(`${name} is empty`);
  return n;
}

/** A `chat_id`: only numeric ids are known to the fake; `@username` → "chat not found". */
export function chatId(params: Params): number {
  const value = params.chat_id;
  if (typeof value === "string" && value.startsWith("@")) throw badRequest("chat not found");
  return int(params, "chat_id");
}

/** An optional string parameter. */
export function optStr(params: Params, name: string): string | undefined {
  const value = params[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  throw badRequest(`field "${name}" must be of type String`);
}

/** An optional boolean parameter (`true`/`false` or their string forms). */
export function optBool(params: Params, name: string): boolean | undefined {
  const value = params[name];
  if (value === undefined || value === null) return undefined;
  return value === true || value === "true" || value === "1" || value === 1;
}

/** An optional JSON-serialised parameter (object or array), given as a value or as JSON text. */
export function optJson(params: Params, name: string, what = `${name} JSON object`): unknown {
  const value = params[name];
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    throw badRequest(`can't parse ${what}`);
  }
}

/** True for a plain JSON object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Number of Unicode code points (how Telegram counts "characters"). */
export function charCount(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}
