/** Slack's request signing (v0): what Bolt's HTTP receiver verifies. */
import { createHmac } from "node:crypto";

/**
 * The `x-slack-signature` of a request body: `v0=` + hex(HMAC-SHA256(secret, `v0:<ts>:<body>`)).
 *
 * @example
 * const ts = Math.floor(Date.now() / 1000);
 * const headers = { "x-slack-request-timestamp": String(ts), "x-slack-signature": signSlackRequest(secret, ts, body) };
 */
export function signSlackRequest(signingSecret: string, timestampSec: number, body: string): string {
  const hmac = createHmac("sha256", signingSecret);
  hmac.update(`v0:${timestampSec}:${body}`);
  return `v0=${hmac.digest("hex")}`;
}

/** Headers of a signed request, with the content type Bolt expects for the body kind. */
export function signedHeaders(
  signingSecret: string,
  timestampSec: number,
  body: string,
  kind: "json" | "form",
): Record<string, string> {
  return {
    // Bolt compares the form content type with `===`: no charset parameter.
    "content-type": kind === "json" ? "application/json" : "application/x-www-form-urlencoded",
    "x-slack-request-timestamp": String(timestampSec),
    "x-slack-signature": signSlackRequest(signingSecret, timestampSec, body),
  };
}
