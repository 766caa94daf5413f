import { randomBase64Url, sortableDigits } from "../model/random.ts";

/**
 * The button payload codec shared by every platform: `au1.<token>.<action>`, where token is a per-question
 * value of 16 base64url characters (see {@link newActionToken}) — so every payload names its question —
 * and action one of:
 * an option index `0`-`9` (answer with it), `p0`-`p9` (pick it in a form), `c` (choose the event's
 * `values`), `o` (Other…), `s` (Skip), `!` (send the form), `v` (view this question).
 * At most 23 bytes: fits Telegram's 64-byte `callback_data`, Discord's `custom_id` and Slack's ids.
 */

/**
 * What a control does.
 * - `option`: answers the question with that option at once (a lone single-select question's button).
 * - `pick`: in a form (several questions, or multi-select), stages that option in the shared draft:
 *   replaces the choice of a single-select question, toggles it in a multi-select one.
 * - `choose`: stages the options listed in the event's `values` (a select menu, radio buttons, checkboxes).
 * - `other`: Other… (with the event's `text`: that free-text answer); `skip`: skips the whole prompt.
 * - `submit`: sends the form: answered when every question has an answer, else what is missing.
 * - `view`: nothing changes; the channel shows this question (Telegram's Back / Next).
 */
export type Action =
  | { kind: "option"; index: number }
  | { kind: "pick"; index: number }
  | { kind: "choose" }
  | { kind: "other" }
  | { kind: "skip" }
  | { kind: "submit" }
  | { kind: "view" };

/** A decoded button payload. */
export interface DecodedAction {
  token: string;
  action: Action;
}

const PREFIX = "au1";
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{16}$/;
const DATA_PATTERN = /^au1\.([A-Za-z0-9_-]{16})\.(o|s|c|!|v|p?[0-9])$/;
const CODES = { other: "o", skip: "s", choose: "c", submit: "!", view: "v" } as const;
const KINDS = { o: "other", s: "skip", c: "choose", "!": "submit", v: "view" } as const;

/** The longest payload `encodeAction` produces, in bytes. */
export const MAX_ACTION_BYTES = 23;

/** A token's time prefix counts 16 ms steps in 4 base-62 digits: it wraps every 62^4 × 16 ms ≈ 2.7 days. */
const TOKEN_TIME_STEP_MS = 16;
const TOKEN_TIME_CHARS = 4;

/**
 * A fresh action token, 16 URL-safe characters: the time `now` (epoch ms, from the caller's clock) in 16 ms steps as 4 base-62 digits, then
 * 72 random bits from the platform's CSPRNG (12 base64url characters). The random part is the secret (a
 * button payload names its question by it); the prefix makes tokens made together sort together, so a
 * store's token index grows in one place instead of every new token dirtying a random page of it (on
 * SQLite a quarter of the pages each commit wrote). The prefix wraps every ≈ 2.7 days, which only moves
 * where the index grows. Tokens of the old, fully random form stay valid.
 */
export function newActionToken(now: number): string {
  return sortableDigits(now / TOKEN_TIME_STEP_MS, TOKEN_TIME_CHARS) + randomBase64Url(9);
}

/**
 * Encodes a token and an action as button data.
 * @example encodeAction(record.tokens[0], { kind: "option", index: 1 }) // "au1.Xy…Q.1"
 */
export function encodeAction(token: string, action: Action): string {
  if (!TOKEN_PATTERN.test(token)) throw new TypeError("encodeAction: not an action token");
  let code: string;
  if (action.kind === "option" || action.kind === "pick") {
    if (!Number.isInteger(action.index) || action.index < 0 || action.index > 9) {
      throw new TypeError("encodeAction: option index must be 0-9");
    }
    code = `${action.kind === "pick" ? "p" : ""}${action.index}`;
  } else {
    code = CODES[action.kind];
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
  if (code in KINDS) return { token, action: { kind: KINDS[code as keyof typeof KINDS] } };
  if (code.startsWith("p")) return { token, action: { kind: "pick", index: Number(code.slice(1)) } };
  return { token, action: { kind: "option", index: Number(code) } };
}
