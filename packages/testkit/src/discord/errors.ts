/** Discord-shaped error answers: `{ code, message, errors? }` with the HTTP status. */

/** An error answer of the Discord API. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly errors?: Record<string, unknown>,
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = "ApiError";
  }

  /** The JSON body Discord sends. */
  body(): Record<string, unknown> {
    if (this.status === 429) {
      return { message: this.message, retry_after: this.retryAfter ?? 0, global: false, code: this.code };
    }
    const body: Record<string, unknown> = { message: this.message, code: this.code };
    if (this.errors !== undefined) body.errors = this.errors;
    return body;
  }
}

/** One path segment of a form error: a field name or an array index. */
export type FieldPath = Array<string | number>;

/**
 * Collects field errors into Discord's nested `errors` tree
 * (`{ components: { "0": { custom_id: { _errors: [{ code, message }] } } } }`) and throws them as one
 * `50035 Invalid Form Body`.
 */
export class FormErrors {
  private readonly tree: Record<string, unknown> = {};
  private count = 0;

  add(path: FieldPath, code: string, message: string): void {
    let node = this.tree;
    for (const segment of path) {
      const key = String(segment);
      const next = (node[key] ?? {}) as Record<string, unknown>;
      node[key] = next;
      node = next;
    }
    const list = (node._errors ?? []) as Array<{ code: string; message: string }>;
    list.push({ code, message });
    node._errors = list;
    this.count++;
  }

  /** Length of a string in code points, as Discord counts. */
  static chars(value: string): number {
    let n = 0;
    for (const _ of value) n++;
    return n;
  }

  /** Checks a string's length: `between` (min–max, BASE_TYPE_BAD_LENGTH) or `max` only. */
  length(path: FieldPath, value: unknown, min: number, max: number): void {
    if (typeof value !== "string") {
      this.add(path, "BASE_TYPE_STRING", "Value must be a string.");
      return;
    }
    const n = FormErrors.chars(value);
    if (min > 0 && (n < min || n > max)) {
      this.add(path, "BASE_TYPE_BAD_LENGTH", `Must be between ${min} and ${max} in length.`);
    } else if (n > max) {
      this.add(path, "BASE_TYPE_MAX_LENGTH", `Must be ${max} or fewer in length.`);
    }
  }

  /** Throws the collected errors, if any. */
  throwIfAny(): void {
    if (this.count > 0) throw new ApiError(400, 50035, "Invalid Form Body", this.tree);
  }
}

export const unauthorized = () => new ApiError(401, 0, "401: Unauthorized");
export const notFound = () => new ApiError(404, 0, "404: Not Found");
export const unknownChannel = () => new ApiError(404, 10003, "Unknown Channel");
export const unknownMessage = () => new ApiError(404, 10008, "Unknown Message");
export const unknownUser = () => new ApiError(404, 10013, "Unknown User");
export const unknownEmoji = () => new ApiError(400, 10014, "Unknown Emoji");
export const unknownWebhook = () => new ApiError(404, 10015, "Unknown Webhook");
export const unknownInteraction = () => new ApiError(404, 10062, "Unknown interaction");
export const alreadyAcknowledged = () =>
  new ApiError(400, 40060, "Interaction has already been acknowledged.");
export const emptyMessage = () => new ApiError(400, 50006, "Cannot send an empty message");
export const cannotEditOthers = () =>
  new ApiError(403, 50005, "Cannot edit a message authored by another user");
export const invalidWebhookToken = () => new ApiError(401, 50027, "Invalid Webhook Token");
