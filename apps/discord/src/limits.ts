/** Discord limits the channel keeps to (PLATFORMS.md, Discord developer docs), and its own timings. */

/** Message `content`: longer prompts are shortened (descriptions first), never refused. */
export const MESSAGE_CONTENT_MAX_CHARS = 2000;
export const BUTTONS_PER_ROW = 5;
export const ACTION_ROWS_MAX = 5;
/** Four rows of options, then Other… and Skip on their own row (of Discord's 25); core sends more as text. */
export const BUTTONS_MAX = (ACTION_ROWS_MAX - 1) * BUTTONS_PER_ROW + 2;
/** A string select: a question with more options is answered by text. */
export const SELECT_OPTIONS_MAX = 25;
export const SELECT_OPTION_LABEL_MAX_CHARS = 100;
export const SELECT_OPTION_DESCRIPTION_MAX_CHARS = 100;
export const SELECT_PLACEHOLDER_MAX_CHARS = 150;
/** A form's "Selected: …" line: the draft holds free text of up to 4000 characters; the prompt keeps its room. */
export const SELECTED_LINE_MAX_CHARS = 300;
export const BUTTON_LABEL_MAX_CHARS = 80;
export const CUSTOM_ID_MAX_CHARS = 100;
export const MODAL_TITLE_MAX_CHARS = 45;
export const TEXT_INPUT_LABEL_MAX_CHARS = 45;
export const TEXT_INPUT_PLACEHOLDER_MAX_CHARS = 100;
export const TEXT_INPUT_MAX_CHARS = 4000;
/** Discord drops an interaction that gets no first response within this time. */
export const INTERACTION_RESPONSE_DEADLINE_MS = 3000;

/**
 * A tap the broker has not decided by then (a slow store: SQLite may wait up to 30 s for a write lock)
 * is acknowledged and its outcome shown afterwards: a second before the 3 s deadline.
 */
export const DEFER_AFTER_MS = 2000;
/** The plugin's client waits out a rate limit up to this long; a longer one fails the call as `rate_limited`. */
export const RATE_LIMIT_WAIT_MAX_MS = 30_000;
/** How long the plugin waits for `GET /users/@me` and the gateway's READY. */
export const LOGIN_TIMEOUT_MS = 30_000;
/** A message `nonce`: with `enforce_nonce`, Discord returns the earlier message for a repeat. */
export const NONCE_MAX_CHARS = 25;
/** An interaction or message id stays handled this long (SPEC §9): Discord redelivers nothing later. */
export const DEDUPE_TTL_MS = 60 * 60 * 1000;
/** How long `stop()` (and a lost lease) waits for discord.js to close its connection. */
export const DISCONNECT_TIMEOUT_MS = 2000;
/** Retrying the gateway connection while this instance holds the lease: first delay, doubling, cap. */
export const RECONNECT_FIRST_MS = 2000;
export const RECONNECT_MAX_MS = 60_000;
/** The gateway lease: a dead holder is replaced within about this plus a third of it. */
export const LEASE_TTL_MS = 6000;
