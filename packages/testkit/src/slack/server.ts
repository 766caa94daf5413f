/** The HTTP side: a node:http server on 127.0.0.1 with the Web API, `response_url`s and Socket Mode. */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createHolds, type HeldCalls } from "./hold.ts";
import { DEFAULT_WAIT_MS } from "./limits.ts";
import { postToResponseUrl } from "./messages.ts";
import { type ApiAnswer, invoke, recordCall } from "./methods.ts";
import { ApiError, type Params, parseBody } from "./params.ts";
import { createSocketServer } from "./socket.ts";
import { createState, dmId, findMessage, notify, waitUntil } from "./state.ts";
import { deliver, deliverHttp, type HttpDeliveryOptions } from "./transport.ts";
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
import { createFakeSlackUser, type FakeSlackUser } from "./users.ts";
import { displayText } from "./wire.ts";

/** Slack redelivers an unacknowledged event nearly at once, after 1 minute, and after 5 minutes. */
const SLACK_EVENT_RETRY_DELAYS_MS = [0, 60_000, 300_000] as const;

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

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function send(res: ServerResponse, answer: ApiAnswer): void {
  if (res.destroyed || res.writableEnded) return;
  const body = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body);
  res.writeHead(answer.status, answer.headers).end(body);
}

/**
 * Starts a fake Slack (Web API, `response_url`s, Socket Mode) on 127.0.0.1 (random port) for the real
 * Bolt to talk to.
 *
 * @example
 * ```ts
 * const slack = await createFakeSlack();
 * const app = new App({
 *   token: slack.botToken,
 *   appToken: slack.appToken,
 *   socketMode: true,
 *   clientOptions: { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } },
 * });
 * app.message("hi", async ({ say }) => void (await say("hello")));
 * await app.start();
 * await slack.user({ id: "U0ALICE", name: "alice" }).say("C0GENERAL", "hi");
 * await slack.waitUntil(() => slack.messages("C0GENERAL").find((m) => m.text === "hello"));
 * await app.stop();
 * await slack.close();
 * ```
 */
export async function createFakeSlack(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const botUserId = options.botUserId ?? "U0FAKEBOT";
  const state = createState(
    {
      botToken: options.botToken ?? "xoxb-fake-bot-token",
      appToken: options.appToken ?? "xapp-1-fake-app-token",
      signingSecret: options.signingSecret ?? "fake-signing-secret",
      appId: "A0FAKEAPP",
      botId: "B0FAKEBOT",
      botUserId,
      botName: options.botName ?? "ask_user_bot",
    },
    {
      now: options.now ?? Date.now,
      echoBotMessages: options.echoBotMessages ?? true,
      eventRetryDelaysMs: options.eventRetryDelaysMs ?? SLACK_EVENT_RETRY_DELAYS_MS,
    },
  );
  const socket = createSocketServer(state);
  state.socket = socket;
  const holds = createHolds(state);

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const body = await readBody(req);
    const response = /^\/response\/([\w-]+)$/.exec(url.pathname);
    if (response && req.method === "POST") {
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        parsed = undefined;
      }
      const answer = postToResponseUrl(state, response[1] ?? "", parsed);
      state.responses.push({
        url: `${state.origin}${url.pathname}`,
        body: (parsed ?? {}) as Params,
        at: state.now(),
        status: answer.status,
      });
      notify(state);
      return send(res, {
        status: answer.status,
        headers: { "content-type": "application/json" },
        body: answer.body,
      });
    }
    const method = /^\/api\/([A-Za-z.]+)$/.exec(url.pathname);
    if (!method) return send(res, { status: 404, headers: {}, body: "Not Found" });
    let params: Params;
    try {
      params = {
        ...Object.fromEntries(url.searchParams),
        ...parseBody(body, req.headers["content-type"] ?? ""),
      };
    } catch (error) {
      const code = error instanceof ApiError ? error.error : "invalid_form_data";
      return send(res, {
        status: 200,
        headers: { "content-type": "application/json" },
        body: { ok: false, error: code },
      });
    }
    const auth = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    const name = method[1] ?? "";
    const call = recordCall(state, name, params);
    const run = () =>
      send(
        res,
        invoke(state, name, params, auth, () => socket.issueUrl(), call),
      );
    if (!holds.park(call, res, run)) run();
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      send(res, {
        status: 500,
        headers: { "content-type": "application/json" },
        body: { ok: false, error: "fatal_error", detail: message },
      });
    });
  });
  server.on("upgrade", (req, sock, head) => {
    if (!socket.handleUpgrade(req, sock, head)) sock.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    apiUrl: `${state.origin}/api/`,
    botToken: state.app.botToken,
    appToken: state.app.appToken,
    signingSecret: state.app.signingSecret,
    bot: { userId: botUserId, botId: state.app.botId, appId: state.app.appId, name: state.app.botName },
    team: { ...state.team },
    calls: state.calls,
    deliveries: state.deliveries,
    responses: state.responses,
    ephemerals: state.ephemerals,
    setRequestUrl(url) {
      state.requestUrls = url === undefined ? [] : typeof url === "string" ? [url] : [...url];
    },
    user(init) {
      state.users.set(init.id, { ...init });
      return createFakeSlackUser(state, init);
    },
    messages: (channel) => [...(state.messages.get(channel)?.values() ?? [])].map((m) => structuredClone(m)),
    message(channel, ts) {
      const found = findMessage(state, channel, ts);
      return found && structuredClone(found);
    },
    views: () => [...state.views.values()].map((v) => structuredClone(v)),
    dmOf: (userId) => state.dms.get(userId) ?? dmId(userId),
    display: (text) => displayText(state, text),
    failNext(method, failure) {
      state.failures.set(method, [...(state.failures.get(method) ?? []), failure]);
    },
    hold: (method) => holds.hold(method),
    loseNextAck(count = 1) {
      state.lostAcks += count;
    },
    deliver: (body) => deliver(state, body),
    deliverHttp: (body, httpOptions) => deliverHttp(state, body, httpOptions),
    socketConnections: () => socket.connections(),
    disconnectSockets: (reason = "refresh_requested") => socket.disconnectAll(reason),
    waitFor: (predicate, timeoutMs = DEFAULT_WAIT_MS) =>
      waitUntil(state, () => state.calls.find(predicate), timeoutMs, "a matching Web API call"),
    waitUntil: (check, timeoutMs = DEFAULT_WAIT_MS) => waitUntil(state, check, timeoutMs),
    async close() {
      if (state.closed) return;
      state.closed = true;
      for (const timer of state.timers) clearTimeout(timer);
      state.timers.clear();
      holds.dropAll();
      notify(state);
      socket.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
