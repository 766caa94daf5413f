/**
 * Slack limits the renderer stays within (Slack's Block Kit reference, /work/shared/PLATFORMS.md; lengths
 * in UTF-16 units), and this app's own deadlines and bounds.
 */

/** Button `text`; an option label (≤ 64 user-perceived characters) can be more units: cut with "…". */
export const BUTTON_TEXT_MAX_CHARS = 75;
/** Elements of one actions block (options ≤ 4, plus Other… and Skip). */
export const ACTIONS_ELEMENTS_MAX = 25;
/** Options of one radio button or checkbox group: a form question with more is asked as text. */
export const CHOICE_OPTIONS_MAX = 10;
/** An option's `text` and `description` in a radio button or checkbox group. */
export const OPTION_TEXT_MAX_CHARS = 75;
export const OPTION_DESCRIPTION_MAX_CHARS = 75;
/** `text` of a section block, and of one context element. */
export const SECTION_TEXT_MAX_CHARS = 3000;
export const CONTEXT_TEXT_MAX_CHARS = 3000;
/** A message's `text` (Slack truncates a longer one). */
export const MESSAGE_TEXT_MAX_CHARS = 40_000;
/** Modal `title` and `submit`; a `plain_text_input`'s `max_length`. */
export const MODAL_TITLE_MAX_CHARS = 24;
export const PLAIN_TEXT_INPUT_MAX_CHARS = 3000;
/** Every request must be acknowledged within this long, or Slack shows the person an error. */
export const ACK_DEADLINE_MS = 3000;

/** HTTP mode: the one Request URL of events and interactivity (under the gateway's port, or `listen`). */
export const EVENTS_PATH = "/channels/slack/events";
/** A standalone host serves it here too: Bolt's own path, an older Request URL. */
export const LEGACY_EVENTS_PATH = "/slack/events";

/** How long a modal submission may wait for the broker before it is acked anyway (outcome then ephemeral). */
export const ACK_BUDGET_MS = 2000;
/** How long `users.info` may hold up a tap; a submission (usually cached) waits less, for the ack budget. */
export const USER_LOOKUP_BUDGET_MS = 800;
export const SUBMISSION_LOOKUP_BUDGET_MS = 300;
/** `users.info` results kept this long. */
export const USER_CACHE_TTL_MS = 60 * 60 * 1000;
/** How long a request's id is remembered to drop a second delivery: Slack's last retry of an event is ~6 min after it. */
export const DEDUPE_TTL_MS = 60 * 60 * 1000;
/** A call safe to repeat is tried this often while Slack cannot be reached, pausing 0.5 s, then twice as long. */
export const IDEMPOTENT_ATTEMPTS_MAX = 3;
export const IDEMPOTENT_RETRY_DELAY_MS = 500;
/** A time in a notice within this long of now shows the time only; otherwise also the date. */
export const SAME_DAY_WINDOW_MS = 12 * 60 * 60 * 1000;

/** The `event_type` of the metadata every prompt is posted with (`{ question_id }` its payload). */
export const PROMPT_EVENT_TYPE = "ask_user_prompt";
/** A re-sent prompt's earlier post: history pages, messages a page, the clock skew allowed (Slack's and ours). */
export const EARLIER_POST_PAGES_MAX = 3;
export const EARLIER_POST_PAGE_LIMIT = 100;
export const EARLIER_POST_CLOCK_SKEW_MS = 60_000;
