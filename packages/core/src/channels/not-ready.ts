/**
 * The answer of a channel's webhook before the channel can take requests (still connecting, too busy):
 * 503 with `Retry-After`, so that the platform delivers the request again a little later.
 */

/**
 * A 503 answer `{ ok: false, error: "not_ready", message }` with `retry-after: <seconds>` (a fraction
 * rounded up: the header takes whole seconds). Throws a `RangeError` for a negative or non-finite wait.
 *
 * @example
 * if (!ready) return notReadyResponse("The Slack channel is not receiving yet.", 1);
 */
export function notReadyResponse(message: string, retryAfterSeconds: number): Response {
  if (!Number.isFinite(retryAfterSeconds) || retryAfterSeconds < 0)
    throw new RangeError(`notReadyResponse: retryAfterSeconds must be 0 or more, not ${retryAfterSeconds}.`);
  return Response.json(
    { ok: false, error: "not_ready", message },
    { status: 503, headers: { "retry-after": String(Math.ceil(retryAfterSeconds)) } },
  );
}
