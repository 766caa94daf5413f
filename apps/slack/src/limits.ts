/**
 * Slack limits the renderer stays within, and this app's own deadlines and bounds.
 * Source: Slack's Block Kit reference and /work/shared/PLATFORMS.md.
 */

/**
 * Button `text` (plain_text), in UTF-16 units. An option label is at most 64 user-perceived characters,
 * which can be more units (emoji): a longer one is cut with "…".
 */
export const BUTTON_TEXT_MAX_CHARS = 75;

/** Options of one radio button or checkbox group: a form question with more is asked as text. */
export const CHOICE_OPTIONS_MAX = 10;

/**
 * An option of a radio button or checkbox group: its `text` and `description` (plain_text) at most 75
 * UTF-16 units, cut with "…"; its `value` (the option's index) is far below Slack's 75.
 */
export const OPTION_TEXT_MAX_CHARS = 75;
export const OPTION_DESCRIPTION_MAX_CHARS = 75;

/** `action_id` and button `value`; core's action codec needs at most 22. */
export const ACTION_ID_MAX_CHARS = 255;
export const BUTTON_VALUE_MAX_CHARS = 2000;

/** Elements of one actions block (options ≤ 4, plus Other… and Skip). */
export const ACTIONS_ELEMENTS_MAX = 25;

/** Blocks in one message (a form of three questions uses at most 12). */
export const MESSAGE_BLOCKS_MAX = 50;

/** `text` of a section block, and of one context element. */
export const SECTION_TEXT_MAX_CHARS = 3000;
export const CONTEXT_TEXT_MAX_CHARS = 3000;

/** Modal `title`, `submit` and `close`. */
export const MODAL_TITLE_MAX_CHARS = 24;
export const MODAL_BUTTON_MAX_CHARS = 24;

/** Modal `private_metadata`, and the free-text input's `max_length`. */
export const PRIVATE_METADATA_MAX_CHARS = 3000;
export const PLAIN_TEXT_INPUT_MAX_CHARS = 3000;

/** Slack's `text` field limit (longer text is truncated by Slack). */
export const MESSAGE_TEXT_MAX_CHARS = 40_000;

/** Every request must be acknowledged within this long, or Slack shows the user an error. */
export const ACK_DEADLINE_MS = 3000;

/**
 * HTTP mode: where Slack's Events API and interactivity requests go — one Request URL for both, under
 * the gateway's port (`/channels/<name>/…`), or a standalone host's `listen` port.
 */
export const EVENTS_PATH = "/channels/slack/events";

/** A standalone host also serves it here (`listen.paths`): Bolt's own path, an older Request URL. */
export const LEGACY_EVENTS_PATH = "/slack/events";

/**
 * A request that comes before the channel receives (or after it stopped) is answered 503 with this
 * `Retry-After`, so that Slack redelivers an event (interactions are not redelivered: the person sees
 * an error and taps again).
 */
export const NOT_READY_RETRY_AFTER_SEC = 1;

/**
 * How long a modal submission may wait for the broker before it is acknowledged anyway (the outcome
 * is then shown as an ephemeral message).
 */
export const ACK_BUDGET_MS = 2000;

/** How long a `users.info` lookup may hold up a tap before it goes on without locale and name. */
export const USER_LOOKUP_BUDGET_MS = 800;

/** The same for a modal submission, which must be acked with its outcome (the person is usually cached). */
export const SUBMISSION_LOOKUP_BUDGET_MS = 300;

/** `users.info` results (locale, display name) are kept this long, for at most this many users. */
export const USER_CACHE_TTL_MS = 60 * 60 * 1000;
export const USER_CACHE_MAX = 1000;

/**
 * How long an event id or an interaction's id is remembered (in the shared store, across instances)
 * to drop a second delivery of it. Slack's last retry of an event comes about 6 minutes after it.
 */
export const DEDUPE_TTL_MS = 60 * 60 * 1000;

/** `conversations.open` results (user id → DM channel id) kept at most. */
export const DM_CACHE_MAX = 1000;

/**
 * A call that is safe to repeat (`chat.update`, `conversations.open`, `reactions.add`) is tried this many
 * times in all when Slack could not be reached, pausing this long before the second try and twice as
 * long before each next one. Posts are never repeated (see `retry.ts`).
 */
export const IDEMPOTENT_ATTEMPTS_MAX = 3;
export const IDEMPOTENT_RETRY_DELAY_MS = 500;

/** The WebClient's retries of a rate-limited call (`SLACK_RETRY_POLICY`): how many, and for how long. */
export const RATE_LIMIT_RETRIES_MAX = 3;
export const RATE_LIMIT_RETRY_TIME_MAX_MS = 60_000;

/**
 * The reaction a text answer's confirmation is, on the person's message, when the question's own message
 * is edited to say the same (`notify` with `purpose: "confirmation"`).
 */
export const CONFIRMATION_REACTION = "white_check_mark";

/** A time in a notice within this long of now shows the time only; otherwise also the date. */
export const SAME_DAY_WINDOW_MS = 12 * 60 * 60 * 1000;

/** The `event_type` of the message metadata every prompt is posted with (`{ question_id }` its payload). */
export const PROMPT_EVENT_TYPE = "ask_user_prompt";
/** A re-sent prompt looks for its earlier post in this many history pages at most … */
export const EARLIER_POST_PAGES_MAX = 3;
/** … of this many messages each … */
export const EARLIER_POST_PAGE_LIMIT = 100;
/** … posted since the question was stored, less this much (Slack's clock and ours may differ). */
export const EARLIER_POST_CLOCK_SKEW_MS = 60_000;
