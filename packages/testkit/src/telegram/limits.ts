/**
 * Telegram Bot API limits the fake enforces, and the fake's own bounds.
 * Source: the Bot API reference and /work/shared/PLATFORMS.md.
 * Lengths in "chars" count Unicode code points; "bytes" count UTF-8 bytes.
 */

/** `callback_data` of an inline button: 1–64 bytes. */
export const CALLBACK_DATA_MIN_BYTES = 1;
export const CALLBACK_DATA_MAX_BYTES = 64;

/** Message text, counted after entity parsing (tags stripped, surrounding whitespace trimmed). */
export const MESSAGE_TEXT_MIN_CHARS = 1;
export const MESSAGE_TEXT_MAX_CHARS = 4096;

/** `answerCallbackQuery` text. */
export const CALLBACK_ANSWER_TEXT_MAX_CHARS = 200;

/** `input_field_placeholder` of `force_reply` and reply keyboards. */
export const INPUT_FIELD_PLACEHOLDER_MIN_CHARS = 1;
export const INPUT_FIELD_PLACEHOLDER_MAX_CHARS = 64;

/** Reactions a bot may set on one message (`setMessageReaction`: bots react as non-premium users). */
export const BOT_REACTIONS_MAX = 1;

/** Webhook `secret_token`: 1–256 of `[A-Za-z0-9_-]`. */
export const WEBHOOK_SECRET_TOKEN_MAX_CHARS = 256;
export const WEBHOOK_SECRET_TOKEN_PATTERN = /^[A-Za-z0-9_-]+$/;

/** `getUpdates` `limit`: 1–100, default 100. */
export const GET_UPDATES_LIMIT_MAX = 100;

/** Bot commands: `command` 1–32 of `[a-z0-9_]`, at most 100 per scope. */
export const BOT_COMMAND_PATTERN = /^[a-z0-9_]{1,32}$/;
export const BOT_COMMANDS_MAX = 100;

// --- the fake's own bounds (real Telegram holds long polls for up to 50 s) ---

/** A long-polling `getUpdates` is held at most this long, whatever `timeout` asks for. */
export const LONG_POLL_HOLD_MAX_MS = 1000;

/** A webhook delivery is tried this many times before the update is dropped and recorded. */
export const WEBHOOK_DELIVERY_ATTEMPTS = 3;

/** Pause between two tries of one webhook delivery. */
export const WEBHOOK_RETRY_DELAY_MS = 50;

/** One webhook request is abandoned (and counts as a failed try) after this long. */
export const WEBHOOK_REQUEST_TIMEOUT_MS = 10_000;

/** Default bound of every `wait*` helper. */
export const DEFAULT_WAIT_MS = 3000;
