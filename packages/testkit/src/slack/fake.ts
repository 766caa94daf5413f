/** What a test holds: `FakeSlackOptions` and the `FakeSlack` handle that `createFakeSlack` returns. */
import type { HeldCalls } from "./hold.ts";
import type { HttpDeliveryOptions } from "./transport.ts";
import type {
  ApiCall,
  Delivery,
  Failure,
  FakeEphemeral,
  FakeSlackMessage,
  FakeView,
  ResponseUrlPost,
  SlackUserInit,
} from "./types.ts";
import type { FakeSlackUser } from "./users.ts";

/** Options of {@link createFakeSlack}. */
export interface FakeSlackOptions {
  /** Default `"xoxb-fake-bot-token"`. */
  botToken?: string;
  /** Default `"xapp-1-fake-app-token"` (Socket Mode). */
  appToken?: string;
  /** Default `"fake-signing-secret"` (HTTP mode). */
  signingSecret?: string;
  /** The bot user's id (Bolt's `ignoreSelf` drops its events). Default `"U0FAKEBOT"`. */
  botUserId?: string;
  /** Default `"ask_user_bot"`. */
  botName?: string;
  /** Hand the app's own posts back to it as `message` events with `bot_id`, as Slack does. Default true. */
  echoBotMessages?: boolean;
  /**
   * Delays before each redelivery of an event the app did not acknowledge with a 200 within 3 s, one
   * entry per retry. Default Slack's: nearly at once, after 1 minute, after 5 minutes (`[0, 60000,
   * 300000]`); `[]` turns redelivery off.
   */
  eventRetryDelaysMs?: readonly number[];
  /** Clock (epoch ms) for timestamps, trigger and response_url expiry. Default `Date.now`. */
  now?: () => number;
}

/** A running fake Slack workspace with one app installed. */
export interface FakeSlack {
  /** Pass to Bolt as `clientOptions.slackApiUrl` (ends with `/`). */
  readonly apiUrl: string;
  readonly botToken: string;
  readonly appToken: string;
  readonly signingSecret: string;
  readonly bot: { userId: string; botId: string; appId: string; name: string };
  readonly team: { id: string; domain: string };
  /** Every Web API call, in arrival order (live). */
  readonly calls: readonly ApiCall[];
  /** Every request handed to the app and its answer (live). */
  readonly deliveries: readonly Delivery[];
  /** Every POST to a `response_url` (live). */
  readonly responses: readonly ResponseUrlPost[];
  /** Every ephemeral message (live). */
  readonly ephemerals: readonly FakeEphemeral[];
  /**
   * Where HTTP-mode requests go, e.g. Bolt's `http://127.0.0.1:P/slack/events`. Several URLs are several
   * instances behind a load balancer: each request goes to the next in turn, and a redelivered event to
   * another one than the attempt before.
   */
  setRequestUrl(url: string | readonly string[] | undefined): void;
  /** A person in the workspace (known to `users.info`) who can write, click and submit. */
  user(init: SlackUserInit): FakeSlackUser;
  /** The messages of a conversation as they stand now (thread replies included), in posting order. */
  messages(channel: string): FakeSlackMessage[];
  /** One message as it stands now. */
  message(channel: string, ts: string): FakeSlackMessage | undefined;
  /** Every modal opened so far. */
  views(): FakeView[];
  /** The DM conversation id of a user with the app (whether or not it was opened yet). */
  dmOf(userId: string): string;
  /**
   * A message text as Slack shows it to people: `<@U0ALICE>` → `@alice`, `<!date^…|fallback>` → the
   * fallback, `<https://x|label>` → `label`, `&lt;` → `<`, … (see {@link displayText}).
   */
  display(text: string): string;
  /**
   * A message as a person sees it, as text (see `text.ts`): its blocks — buttons `[Send]`, radio buttons
   * `(•) Staging`, checkboxes `[✓] EU` as the message selects them — or its text, then its reactions.
   * Throws when there is no such message.
   */
  render(channel: string, ts: string): string;
  /** Makes the next call of `method` fail (queued: call twice to fail twice). */
  failNext(method: string, failure: Failure): void;
  /**
   * Holds every call of `method` (`"chat.postMessage"`, `"chat.update"`, …) open from now on, before
   * the fake acts on it, until the handle releases (carries out) or drops (cuts) them. Throws if
   * `method` is already held.
   */
  hold(method: string): HeldCalls;
  /**
   * The app's next `count` answers to deliveries (HTTP responses, Socket Mode acks) are lost on the way
   * back: the app did the work, Slack saw nothing, and redelivers an event (to another instance when
   * there is one). The delivery is recorded with `lost: true`.
   */
  loseNextAck(count?: number): void;
  /** Hands any body to the app over the current transport (Socket Mode if connected, else HTTP). */
  deliver(body: Record<string, unknown>): Promise<Delivery>;
  /** POSTs a body over HTTP with a chosen signature, timestamp or content type. */
  deliverHttp(body: Record<string, unknown>, options?: HttpDeliveryOptions): Promise<Delivery>;
  /** Open Socket Mode connections. */
  socketConnections(): number;
  /** Sends `{ type: "disconnect", reason }` over every Socket Mode connection. */
  disconnectSockets(reason?: string): void;
  /** The first call (past or future) matching `predicate`; rejects after `timeoutMs`. */
  waitFor(predicate: (call: ApiCall) => boolean, timeoutMs?: number): Promise<ApiCall>;
  /** The first truthy value of `check`, re-run on every change; rejects after `timeoutMs`. */
  waitUntil<T>(check: () => T | undefined | null | false, timeoutMs?: number): Promise<T>;
  /** Stops the server: Socket Mode connections are cut, waits reject. Idempotent. */
  close(): Promise<void>;
}
