/**
 * Discord API limits the fake enforces, and the fake's own bounds.
 * Source: the Discord developer documentation and /work/shared/PLATFORMS.md.
 * Lengths count Unicode code points, as Discord does.
 */

/** Message `content`. */
export const MESSAGE_CONTENT_MAX_CHARS = 2000;

/** Action rows per message, and components per action row. */
export const ACTION_ROWS_MAX = 5;
export const ROW_COMPONENTS_MIN = 1;
export const ROW_COMPONENTS_MAX = 5;

/** A component's `custom_id`: 1–100 characters, unique within the message or modal. */
export const CUSTOM_ID_MIN_CHARS = 1;
export const CUSTOM_ID_MAX_CHARS = 100;

/** A button's `label`. */
export const BUTTON_LABEL_MAX_CHARS = 80;

/**
 * A string select (component type 3): 1–25 options; each option's `label` and `value` 1–100 and
 * `description` ≤ 100; `placeholder` ≤ 150; `min_values` 0–25 and `max_values` 1–25.
 */
export const SELECT_OPTIONS_MIN = 1;
export const SELECT_OPTIONS_MAX = 25;
export const SELECT_OPTION_LABEL_MAX_CHARS = 100;
export const SELECT_OPTION_VALUE_MAX_CHARS = 100;
export const SELECT_OPTION_DESCRIPTION_MAX_CHARS = 100;
export const SELECT_PLACEHOLDER_MAX_CHARS = 150;
export const SELECT_MIN_VALUES_MAX = 25;
export const SELECT_MAX_VALUES_MIN = 1;
export const SELECT_MAX_VALUES_MAX = 25;

/** Modal `title` 1–45 and 1–5 top-level components. */
export const MODAL_TITLE_MAX_CHARS = 45;
export const MODAL_COMPONENTS_MIN = 1;
export const MODAL_COMPONENTS_MAX = 5;

/** Text input: `label` 1–45, `placeholder` ≤ 100, `value` / `min_length` / `max_length` ≤ 4000. */
export const TEXT_INPUT_LABEL_MAX_CHARS = 45;
export const TEXT_INPUT_PLACEHOLDER_MAX_CHARS = 100;
export const TEXT_INPUT_VALUE_MAX_CHARS = 4000;

/** The first response to an interaction must arrive within this time. */
export const INTERACTION_RESPONSE_DEADLINE_MS = 3000;

/** An interaction token (follow-ups, edits of the original response) is valid this long. */
export const INTERACTION_TOKEN_TTL_MS = 15 * 60 * 1000;

/** A message `nonce`: an integer, or a string of at most 25 characters. */
export const NONCE_MAX_CHARS = 25;

/**
 * With `enforce_nonce`, a second message by the same author in the same channel with the same nonce
 * within this window returns the first one instead of posting (Discord: "the past few minutes").
 */
export const NONCE_WINDOW_MS = 2 * 60 * 1000;

/** Message flags the fake understands. */
export const FLAG_EPHEMERAL = 1 << 6;

/** Gateway intents the fake looks at (the privileged Message Content intent among them). */
export const INTENT_GUILDS = 1 << 0;
export const INTENT_GUILD_MESSAGES = 1 << 9;
export const INTENT_DIRECT_MESSAGES = 1 << 12;
export const INTENT_MESSAGE_CONTENT = 1 << 15;

// --- the fake's own bounds ---

/** `heartbeat_interval` sent in HELLO (Discord's usual value). */
export const HEARTBEAT_INTERVAL_MS = 41_250;

/** Default bound of every `wait*` helper. */
export const DEFAULT_WAIT_MS = 3000;
