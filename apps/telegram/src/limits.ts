/**
 * Telegram Bot API limits the channel respects, and the channel's own bounds, as named constants.
 * Source: the Bot API reference and shared/PLATFORMS.md. "Chars" are counted as UTF-16 code units,
 * which is never fewer than Telegram's count, so staying under them is always safe.
 */

/** Message text after entity parsing: 1–4096 characters. */
export const MESSAGE_TEXT_MAX_CHARS = 4096;

/** `callback_data` of an inline button: 1–64 bytes (core's action codec uses at most 22). */
export const CALLBACK_DATA_MAX_BYTES = 64;

/** `answerCallbackQuery` text: at most 200 characters. */
export const CALLBACK_ANSWER_TEXT_MAX_CHARS = 200;

/** `input_field_placeholder` of a force-reply: 1–64 characters. */
export const INPUT_FIELD_PLACEHOLDER_MAX_CHARS = 64;

/** Webhook `secret_token`: 1–256 characters of `[A-Za-z0-9_-]`. */
export const WEBHOOK_SECRET_TOKEN_PATTERN = /^[A-Za-z0-9_-]{1,256}$/;

/** The updates the standalone runner asks for (`allowed_updates`). */
export const ALLOWED_UPDATES = ["message", "callback_query"] as const;

// --- the channel's own bounds ---

/** How many recent `update_id`s are remembered to drop a redelivered update (one process alone). */
export const UPDATE_DEDUPE_CAPACITY = 1024;

/** How long the shared store remembers a handled update (Telegram keeps unconfirmed ones for 24 h). */
export const UPDATE_DEDUPE_TTL_MS = 86_400_000;

/** Tries per update across redeliveries, when the shared store dedupes: a failed one runs again. */
export const UPDATE_ATTEMPTS_MAX = 3;

/** Pause before long polling starts again after it stopped on an error (a 409 Conflict included). */
export const POLLING_RETRY_DELAY_MS = 3000;

/** Tries per Bot API call, the first included, for 429 and 5xx answers and network failures. */
export const RETRY_MAX_ATTEMPTS = 4;

/** A 429 that asks to wait longer than this fails at once instead of holding the call. */
export const RETRY_AFTER_MAX_SECONDS = 60;

/** Pause before the first retry of a 5xx answer or a network failure; doubled for each further try. */
export const RETRY_SERVER_ERROR_DELAY_MS = 1000;

/** Option descriptions are cut to these lengths, in turn, until a prompt fits one message. */
export const DESCRIPTION_CUTS = [200, 80, 30, 0] as const;

/** Then question texts are cut to these lengths, in turn. */
export const QUESTION_CUTS = [400, 150] as const;

/**
 * Where the gateway mounts the webhook handler (`/channels/<name>`); also the path added to a
 * `TELEGRAM_WEBHOOK_URL` given without one (`https://gw.example.com` → `…/channels/telegram`).
 */
export const WEBHOOK_PATH = "/channels/telegram";

/**
 * Default webhook listener of the standalone runner (`TELEGRAM_WEBHOOK_HOST` / `_PORT`). Inside the
 * gateway no port is opened: the handler is served on the gateway's port.
 */
export const WEBHOOK_DEFAULT_HOST = "127.0.0.1";
export const WEBHOOK_DEFAULT_PORT = 8443;

/** The largest webhook request body the standalone runner's own port reads (the gateway's limit too). */
export const WEBHOOK_BODY_MAX_BYTES = 1024 * 1024;

/** How long `stop()` waits for webhook requests in flight before cutting their connections. */
export const WEBHOOK_CLOSE_GRACE_MS = 3000;
