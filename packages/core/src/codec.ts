import { randomBase64Url } from "./random.ts";

/**
 * The button payload codec shared by every platform: `au1.<token>.<action>`, where token is a random
 * per-question value (96 bits, base64url) and action an option index, `o` (Other…) or `s` (Skip).
 * At most 24 bytes: fits Telegram's 64-byte `callback_data`, Discord's `custom_id` and Slack's ids.
 */

/** What a button does. */
export type Action = { kind: "option"; index: number } | { kind: "other" } | { kind: "skip" };

/** A decoded button payload. */
export interface DecodedAction {
  token: string;
  action: Action;
}

const PREFIX = "au1";
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{16}$/;
const DATA_PATTERN = /^au1\.([A-Za-z0-9_-]{16})\.(o|s|[0-9])$/;

/** The longest payload `encodeAction` produces, in bytes. */
export const MAX_ACTION_BYTES = 22;

/** A fresh random action token (96 bits from the platform's CSPRNG, base64url). */
export function newActionToken(): string {
  return randomBase64Url(12);
}

/**
 * Encodes a token and an action as button data.
 * @example encodeAction(record.tokens[0], { kind: "option", index: 1 }) // "au1.Xy…Q.1"
 */
export function encodeAction(token: string, action: Action): string {
  if (!TOKEN_PATTERN.test(token)) throw new TypeError("encodeAction: not an action token");
  let code: string;
  if (action.kind === "option") {
    if (!Number.isInteger(action.index) || action.index < 0 || action.index > 9) {
      throw new TypeError("encodeAction: option index must be 0-9");
    }
    code = String(action.index);
  } else {
    code = action.kind === "other" ? "o" : "s";
  }
  return `${PREFIX}.${token}.${code}`;
}

/** Decodes button data; unknown or garbled data (including other bots' payloads) gives `undefined`. */
export function decodeAction(data: unknown): DecodedAction | undefined {
  if (typeof data !== "string" || data.length > MAX_ACTION_BYTES) return undefined;
  const match = DATA_PATTERN.exec(data);
  if (!match) return undefined;
  const [, token, code] = match;
  if (token === undefined || code === undefined) return undefined;
  if (code === "o") return { token, action: { kind: "other" } };
  if (code === "s") return { token, action: { kind: "skip" } };
  return { token, action: { kind: "option", index: Number(code) } };
}
