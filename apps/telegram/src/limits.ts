/**
 * Telegram Bot API limits the channel respects (source: the Bot API reference and shared/PLATFORMS.md),
 * and the channel's own bounds. "Chars" are UTF-16 code units: never fewer than Telegram counts.
 */

/** Message text after entity parsing: 1–4096 characters. */
export const MESSAGE_TEXT_MAX_CHARS = 4096;
/** `callback_data` of an inline button: 1–64 bytes (core's action codec uses at most 23). */
export const CALLBACK_DATA_MAX_BYTES = 64;
/** `answerCallbackQuery` text: at most 200 characters. */
export const CALLBACK_ANSWER_TEXT_MAX_CHARS = 200;
/** Buttons of one inline keyboard: no published number; 100 is the cap Telegram is reported to enforce. */
export const INLINE_KEYBOARD_MAX_BUTTONS = 100;
/** A button's label: Telegram publishes no limit, so core's (only a label of emoji is cut). */
export const BUTTON_LABEL_MAX_CHARS = 64;
/** `input_field_placeholder` of a force-reply: 1–64 characters. */
export const INPUT_FIELD_PLACEHOLDER_MAX_CHARS = 64;
/** Webhook `secret_token`: 1–256 characters of `[A-Za-z0-9_-]`. */
export const WEBHOOK_SECRET_TOKEN_PATTERN = /^[A-Za-z0-9_-]{1,256}$/;
/** The updates the channel asks for (`allowed_updates` of `getUpdates` and `setWebhook`). */
export const ALLOWED_UPDATES = ["message", "callback_query"] as const;

// --- the channel's own bounds ---

/** How long a handled update is remembered (Telegram keeps unconfirmed ones for 24 h). */
export const UPDATE_DEDUPE_TTL_MS = 86_400_000;
/** Pause before long polling starts again after it stopped on an error (a 409 Conflict included). */
export const POLLING_RETRY_DELAY_MS = 3000;
/** Tries per Bot API call for 429 and 5xx, and for network failures of idempotent methods. */
export const RETRY_MAX_ATTEMPTS = 3;
/** A 429 that asks to wait longer than this fails at once instead of holding the call. */
export const RETRY_AFTER_MAX_SECONDS = 30;
/** Pause before the first retry of an idempotent call after a network failure; doubled for the next. */
export const NETWORK_RETRY_DELAY_MS = 1000;
/** Idle kept-alive connections close after this: below common servers' idle timeouts (Node's 5 s). */
export const KEEP_ALIVE_IDLE_MAX_MS = 4000;
/** A tap not answered within this long is acknowledged without text; its outcome is shown later. */
export const TAP_ACK_DEADLINE_MS = 2000;
/** The most options a question may have to get buttons (core's codec numbers them 0-9); else text. */
export const FORM_OPTIONS_MAX = 10;
/** A question's answers in a form's status lines are cut to this length. */
export const FORM_STATUS_VALUE_MAX_CHARS = 200;
/** Where the gateway mounts the webhook; added to a `TELEGRAM_WEBHOOK_URL` without a path. */
export const WEBHOOK_PATH = "/channels/telegram";
/** Where a standalone host listens for the webhook (`TELEGRAM_WEBHOOK_HOST` / `_PORT`); not the gateway. */
export const WEBHOOK_DEFAULT_HOST = "127.0.0.1";
export const WEBHOOK_DEFAULT_PORT = 8443;
/** A webhook update still handled after this is answered 200 (grammY's own 10 s would answer 500). */
export const WEBHOOK_ANSWER_WITHIN_MS = 5000;
/** Updates handled in the background after their request was answered; beyond, new requests get 503. */
export const WEBHOOK_BACKGROUND_MAX = 100;
/** How long `stop()` waits for updates still handled in the background. */
export const WEBHOOK_STOP_WAIT_MS = 10_000;
/** `Retry-After` (seconds) of the webhook's 503s. */
export const WEBHOOK_NOT_READY_RETRY_AFTER_SECONDS = 1;
