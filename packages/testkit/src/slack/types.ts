/**
 * The slice of Slack objects the fake produces, plus the fake's own records. Field names follow Slack's
 * (snake_case) so they can be compared with what Bolt sees.
 */

/** A Block Kit block or element, as JSON. */
export type SlackBlock = Record<string, unknown>;

/** A person (or another app's bot user) in the fake workspace, given to {@link FakeSlack.user}. */
export interface SlackUserInit {
  /** `U…` or `W…`. */
  id: string;
  /** The handle (`alice`). */
  name: string;
  real_name?: string;
  display_name?: string;
  /** What `users.info` with `include_locale` reports, e.g. `de-DE`. Default `en-US`. */
  locale?: string;
  /** Default `Europe/Berlin`. */
  tz?: string;
  /** Another app's bot user: its messages carry `bot_id`. */
  bot_id?: string;
}

/** A message as it currently stands in a conversation (after edits; gone after delete). */
export interface FakeSlackMessage {
  channel: string;
  ts: string;
  thread_ts?: string;
  /** The author's user id (the bot's own user id for the app's messages). */
  user: string;
  /** Set on messages posted by an app. */
  bot_id?: string;
  text: string;
  blocks: SlackBlock[];
  /** Set once the message was edited with `chat.update` (or a `response_url` replace). */
  edited?: { user: string; ts: string };
  /** How many times the message was edited. */
  edits: number;
  /** Emoji reactions (`reactions.add`), as Slack lists them on a message. */
  reactions?: FakeReaction[];
  /** The message metadata it was posted with (`chat.postMessage` `metadata`); listed only on request. */
  metadata?: FakeMessageMetadata;
}

/** Message metadata: an app's event about the message, invisible to people. */
export interface FakeMessageMetadata {
  event_type: string;
  event_payload: Record<string, unknown>;
}

/** One emoji on a message and who added it. */
export interface FakeReaction {
  name: string;
  users: string[];
  count: number;
}

/** A message only one user can see (`chat.postEphemeral`, or a `response_url` post). */
export interface FakeEphemeral {
  channel: string;
  user: string;
  text: string;
  blocks: SlackBlock[];
  thread_ts?: string;
  via: "chat.postEphemeral" | "response_url";
  at: number;
}

/** A modal opened with `views.open`. */
export interface FakeView {
  id: string;
  /** Who sees it (the user whose `trigger_id` opened it). */
  user: string;
  /** The view as Slack stores it: the app's fields plus `id`, `hash`, `state`, `app_id`, … */
  view: Record<string, unknown>;
  /** False once submitted successfully (or closed). */
  open: boolean;
  /** Field errors from the last `response_action: "errors"` answer, by block_id. */
  errors?: Record<string, string>;
}

/** One request to the fake Web API. */
export interface ApiCall {
  method: string;
  /** The parameters, with JSON string fields (`blocks`, `view`, …) parsed. */
  params: Record<string, unknown>;
  /** Epoch ms when the request arrived. */
  at: number;
  /** The error the fake answered with (`invalid_blocks`, `ratelimited`, …). */
  error?: string;
  /** The `[ERROR] …` lines of `response_metadata.messages` for validation errors. */
  messages?: string[];
}

/** One POST to a `response_url`. */
export interface ResponseUrlPost {
  /** The interaction's `response_url`. */
  url: string;
  body: Record<string, unknown>;
  at: number;
  /** HTTP status the fake answered with. */
  status: number;
}

/** A failure that {@link FakeSlack.failNext} injects into the next call of a method. */
export type Failure =
  /** `{ ok: false, error }` with HTTP 200, as Slack answers platform errors. */
  | { error: string }
  /** HTTP 429 with `Retry-After: seconds` and `{ ok: false, error: "ratelimited" }`. */
  | { ratelimited: number }
  /** An HTTP error without a Slack body. */
  | { status: 500 | 502 | 503 }
  /**
   * Slack carries the call out (the message is posted, the edit made), then the connection is cut
   * before the answer: the caller sees a network failure and cannot know it happened.
   */
  | { answerLost: true };

/** How the fake handed a request to the app, and what came back. */
export interface Delivery {
  via: "http" | "socket";
  /** `event_callback`, `block_actions`, `view_submission`, … */
  type: string;
  /** The body handed to the app (pass it to `FakeSlack.deliver` again to redeliver it). */
  request: Record<string, unknown>;
  /** HTTP status of the app's answer; 200 for a Socket Mode ack; 0 when nothing came back in time. */
  status: number;
  /** The app's answer: the HTTP body (JSON-parsed when it is JSON) or the ack's `payload`. */
  body: unknown;
  /** How long the app took to answer (Slack gives up after 3000 ms). */
  ms: number;
  /** Socket Mode only. */
  envelopeId?: string;
  /** Socket Mode: which connection got it (numbered from 1 in the order they opened). */
  connection?: number;
  /** HTTP: the request URL it went to (one of several behind a load balancer). */
  url?: string;
  /**
   * The app answered (`status`, `body` are its answer) but Slack never got the answer
   * (`FakeSlack.loseNextAck`): an event is redelivered as if it timed out.
   */
  lost?: true;
  /** Set on a redelivery of an event: Slack's `X-Slack-Retry-Num` / `retry_attempt` (from 1). */
  retryNum?: number;
  /** Why the event is redelivered: `X-Slack-Retry-Reason` / `retry_reason` (`http_timeout`, `timeout`, …). */
  retryReason?: string;
  /** Why nothing usable came back (a network error, no ack). */
  error?: string;
}

/** A user's interaction and the app's acknowledgement of it. */
export interface Interaction extends Delivery {
  /** The `trigger_id` handed to the app (usable with `views.open` for 3 s). */
  triggerId: string;
}

/** A message a fake user wrote, and how it reached the app. */
export interface SentMessage {
  message: FakeSlackMessage;
  delivery: Delivery;
}
