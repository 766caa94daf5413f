/**
 * Slack Web API and Block Kit limits the fake enforces, and the fake's own bounds.
 * Source: Slack's Block Kit reference and /work/shared/PLATFORMS.md. Lengths count UTF-16 code units
 * (JavaScript string length), as Slack's validators do.
 */

/** Blocks in one message (`chat.postMessage`, `chat.update`, `response_url`). */
export const MESSAGE_BLOCKS_MAX = 50;

/** Blocks in one modal view. */
export const MODAL_BLOCKS_MAX = 100;

/** `text` of a section block. */
export const SECTION_TEXT_MAX_CHARS = 3000;

/** Fields of a section block: at most 10, each at most 2000 characters. */
export const SECTION_FIELDS_MAX = 10;
export const SECTION_FIELD_MAX_CHARS = 2000;

/** Elements of a context block. */
export const CONTEXT_ELEMENTS_MAX = 10;

/** A text object inside a context block. */
export const CONTEXT_TEXT_MAX_CHARS = 3000;

/** Elements of an actions block. */
export const ACTIONS_ELEMENTS_MAX = 25;

/** `text` of a header block. */
export const HEADER_TEXT_MAX_CHARS = 150;

/** Button `text` (plain_text). */
export const BUTTON_TEXT_MAX_CHARS = 75;

/** Options of a `radio_buttons` or `checkboxes` group: at least 1, at most 10. */
export const CHOICE_OPTIONS_MAX = 10;

/**
 * An option object: `text` (plain_text or, in radio buttons and checkboxes, mrkdwn) and its plain_text
 * `description` at most 75 characters each; `value` at most 75.
 */
export const OPTION_TEXT_MAX_CHARS = 75;
export const OPTION_DESCRIPTION_MAX_CHARS = 75;
export const OPTION_VALUE_MAX_CHARS = 75;

/** `action_id` of an interactive element, and `block_id` of a block. */
export const ACTION_ID_MAX_CHARS = 255;
export const BLOCK_ID_MAX_CHARS = 255;

/** Button `value`. */
export const BUTTON_VALUE_MAX_CHARS = 2000;

/** Button `url`. */
export const BUTTON_URL_MAX_CHARS = 3000;

/** Modal `title`, `submit` and `close` (plain_text). */
export const MODAL_TITLE_MAX_CHARS = 24;
export const MODAL_BUTTON_MAX_CHARS = 24;

/** Modal `private_metadata`, and `callback_id` / `external_id`. */
export const PRIVATE_METADATA_MAX_CHARS = 3000;
export const CALLBACK_ID_MAX_CHARS = 255;

/** Input block `label` and `hint`. */
export const INPUT_LABEL_MAX_CHARS = 2000;
export const INPUT_HINT_MAX_CHARS = 2000;

/** `plain_text_input`: `max_length` / `min_length` at most 3000; placeholder at most 150. */
export const PLAIN_TEXT_INPUT_MAX_CHARS = 3000;
export const PLACEHOLDER_MAX_CHARS = 150;

/** Message `text` (Slack truncates longer text; the fake refuses it with `msg_too_long`). */
export const MESSAGE_TEXT_MAX_CHARS = 40_000;

/** A `trigger_id` can be exchanged (`views.open`) once, within this long after the interaction. */
export const TRIGGER_ID_TTL_MS = 3000;

/** A `response_url` accepts this many posts, within this long. */
export const RESPONSE_URL_MAX_USES = 5;
export const RESPONSE_URL_TTL_MS = 30 * 60 * 1000;

/** Requests to the app must be acknowledged within this long (HTTP answer, Socket Mode ack). */
export const ACK_DEADLINE_MS = 3000;

/** Bolt refuses signed requests whose timestamp is older than this. */
export const SIGNATURE_MAX_AGE_SEC = 5 * 60;

/** `conversations.history` / `conversations.replies`: messages per page when `limit` is not given. */
export const HISTORY_LIMIT_DEFAULT = 100;
/** The most messages one page of history gives (a larger `limit` is cut to it). */
export const HISTORY_LIMIT_MAX = 999;
/** What a message metadata `event_type` may be made of (else Slack ignores the metadata with a warning). */
export const METADATA_EVENT_TYPE = /^[A-Za-z0-9_-]+$/;

// --- the fake's own bounds ---

/** A delivery to the app (HTTP or Socket Mode) is abandoned after this long without an answer. */
export const DELIVERY_TIMEOUT_MS = 10_000;

/** Default bound of every `wait*` helper. */
export const DEFAULT_WAIT_MS = 3000;
