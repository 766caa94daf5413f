/**
 * Discord limits the channel keeps to (PLATFORMS.md, Discord developer docs), and its own timings.
 */

/** Message `content`: longer prompts are shortened (descriptions first), never refused. */
export const MESSAGE_CONTENT_MAX_CHARS = 2000;

/** Buttons per action row, and action rows per message. */
export const BUTTONS_PER_ROW = 5;
export const ACTION_ROWS_MAX = 5;

/** Button `label` and any component's `custom_id`. */
export const BUTTON_LABEL_MAX_CHARS = 80;
export const CUSTOM_ID_MAX_CHARS = 100;

/** Modal `title`; text input `label`, `placeholder` and value. */
export const MODAL_TITLE_MAX_CHARS = 45;
export const TEXT_INPUT_LABEL_MAX_CHARS = 45;
export const TEXT_INPUT_PLACEHOLDER_MAX_CHARS = 100;
export const TEXT_INPUT_MAX_CHARS = 4000;

/** Discord drops an interaction that gets no first response within this time. */
export const INTERACTION_RESPONSE_DEADLINE_MS = 3000;

/**
 * When the broker has not decided a tap by then (a slow store), the channel defers the interaction
 * (type 6 for a message update, 5 for a reply) and edits afterwards. Well inside the 3 s deadline.
 */
export const DEFER_AFTER_MS = 1500;

/** How long `runDiscord` waits for the gateway's READY and the guilds before giving up. */
export const LOGIN_TIMEOUT_MS = 30_000;

/** A message `nonce` (string form); with `enforce_nonce`, Discord returns the earlier message for a repeat. */
export const NONCE_MAX_CHARS = 25;

/**
 * How long an interaction or message id is remembered as handled in the shared store (SPEC §9): every
 * gateway connection on the token receives every dispatch, and exactly one instance handles each.
 */
export const DEDUPE_TTL_MS = 60 * 60 * 1000;

/** How long `stop()` (and a lost lease) waits for discord.js to close its connection. */
export const DISCONNECT_TIMEOUT_MS = 2000;

/** Retrying the gateway connection while this instance holds the lease: first delay, doubling, cap. */
export const RECONNECT_FIRST_MS = 2000;
export const RECONNECT_MAX_MS = 60_000;

/** The gateway lease: a dead holder is replaced within about this plus a third of it. */
export const LEASE_TTL_MS = 6000;
