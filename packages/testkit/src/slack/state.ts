/** The fake's in-memory workspace: messages, ephemerals, modals, triggers, users, and change signals. */

import { waitUntil as sharedWaitUntil } from "../wait.ts";
import { DEFAULT_WAIT_MS } from "./limits.ts";
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

/** The app the fake workspace has installed: its bot user and tokens. */
export interface InstalledApp {
  botToken: string;
  appToken: string;
  signingSecret: string;
  appId: string;
  botId: string;
  botUserId: string;
  botName: string;
}

/** An issued `trigger_id`. */
export interface Trigger {
  user: string;
  issuedAt: number;
  exchanged: boolean;
}

/** An issued `response_url`. */
export interface ResponseUrl {
  channel: string;
  user: string;
  /** The message the interaction came from. */
  messageTs?: string;
  issuedAt: number;
  uses: number;
}

/** Where a delivery went: the request URL (HTTP) or the connection number (Socket Mode). */
export interface Route {
  url?: string;
  connection?: number;
}

/** Which redelivery of an event this is (Slack's `X-Slack-Retry-Num` / `retry_attempt`, from 1). */
export interface Retry {
  num: number;
  reason: string;
  /** Where the attempt before went: a redelivery goes elsewhere when there is another place. */
  previous?: Route;
}

/** The Socket Mode side, as the transports see it (implemented in socket.ts). */
export interface SocketLink {
  /** True while an app holds an open Socket Mode connection. */
  isOpen(): boolean;
  /**
   * Sends an envelope to one of the open connections (in turn; a redelivery to another one than the
   * attempt before, when there is another) and resolves with the app's ack (or a timeout); a
   * redelivery carries its `retry_attempt` and `retry_reason`. The connection chosen is written to
   * `route` at once.
   */
  send(
    type: "events_api" | "interactive",
    payload: Record<string, unknown>,
    retry?: Retry,
    route?: Route,
  ): Promise<Delivery>;
}

/** Everything the fake knows. Mutated by the method handlers, the user helpers and the transports. */
export interface State {
  app: InstalledApp;
  team: { id: string; domain: string };
  now: () => number;
  /** `http://127.0.0.1:PORT`, set once the server listens. */
  origin: string;
  calls: ApiCall[];
  deliveries: Delivery[];
  responses: ResponseUrlPost[];
  /** Per conversation: messages by ts, in posting order. */
  messages: Map<string, Map<string, FakeSlackMessage>>;
  ephemerals: FakeEphemeral[];
  views: Map<string, FakeView>;
  triggers: Map<string, Trigger>;
  responseUrls: Map<string, ResponseUrl>;
  /**
   * What each person's Slack client shows selected in a choice group they changed, by
   * `user channel ts block_id action_id`: kept while the message keeps that block, as Slack's client
   * keeps it (a new `block_id` shows the group's initial options again).
   */
  selections: Map<string, Record<string, unknown>[]>;
  users: Map<string, SlackUserInit>;
  /** DM conversation id by user id. */
  dms: Map<string, string>;
  failures: Map<string, Failure[]>;
  /**
   * Where HTTP-mode deliveries go (Bolt's `/slack/events`): several URLs are several instances behind a
   * load balancer, which hands each request to the next one in turn.
   */
  requestUrls: string[];
  /** The load balancer's turn. */
  urlTurn: number;
  /** How many of the app's next answers are lost on the way back (see `FakeSlack.loseNextAck`). */
  lostAcks: number;
  /** Socket Mode connections; preferred over `requestUrls` while one is open. */
  socket: SocketLink | undefined;
  /** Also deliver the app's own posts to it as `message` events, as Slack does. */
  echoBotMessages: boolean;
  /** Delays before each redelivery of an event that was not acked in 3 s (one entry per retry). */
  eventRetryDelaysMs: readonly number[];
  /** Pending timers (redeliveries), cleared on close. */
  timers: Set<ReturnType<typeof setTimeout>>;
  seq: number;
  closed: boolean;
  listeners: Set<() => void>;
}

/** How the fake workspace behaves (see `FakeSlackOptions`). */
export interface Behaviour {
  now: () => number;
  echoBotMessages: boolean;
  eventRetryDelaysMs: readonly number[];
}

/** Creates an empty workspace with one installed app. */
export function createState(app: InstalledApp, behaviour: Behaviour): State {
  const { now, echoBotMessages, eventRetryDelaysMs } = behaviour;
  return {
    app,
    team: { id: "T0FAKE", domain: "fake-workspace" },
    now,
    origin: "",
    calls: [],
    deliveries: [],
    responses: [],
    messages: new Map(),
    ephemerals: [],
    views: new Map(),
    triggers: new Map(),
    responseUrls: new Map(),
    selections: new Map(),
    users: new Map(),
    dms: new Map(),
    failures: new Map(),
    requestUrls: [],
    urlTurn: 0,
    lostAcks: 0,
    socket: undefined,
    echoBotMessages,
    eventRetryDelaysMs,
    timers: new Set(),
    seq: 0,
    closed: false,
    listeners: new Set(),
  };
}

/** Tells every waiter that something changed. */
export function notify(state: State): void {
  for (const listener of [...state.listeners]) listener();
}

/** A fresh, strictly increasing message timestamp (`1712345678.000042`). */
export function nextTs(state: State): string {
  state.seq += 1;
  return `${Math.floor(state.now() / 1000)}.${String(state.seq).padStart(6, "0")}`;
}

/** A fresh id with a Slack-like prefix (`V`, `E`, …). */
export function nextId(state: State, prefix: string): string {
  state.seq += 1;
  return `${prefix}0${state.seq.toString(36).toUpperCase().padStart(8, "0")}`;
}

/** The id the DM conversation of a user with the app has (`U0ALICE` → `D0ALICE`). */
export function dmId(userId: string): string {
  return `D${userId.slice(1)}`;
}

/** Opens (if needed) the DM conversation of a user with the app and returns its id. */
export function dmFor(state: State, userId: string): string {
  const known = state.dms.get(userId);
  if (known) return known;
  const id = dmId(userId);
  state.dms.set(userId, id);
  return id;
}

/** The Events API `channel_type` of a conversation id. */
export function channelType(channel: string): "channel" | "group" | "im" | "mpim" {
  if (channel.startsWith("D")) return "im";
  if (channel.startsWith("G")) return "group";
  return "channel";
}

/** Stores a message (new or replaced) and signals waiters. */
export function storeMessage(state: State, message: FakeSlackMessage): void {
  let conversation = state.messages.get(message.channel);
  if (!conversation) {
    conversation = new Map();
    state.messages.set(message.channel, conversation);
  }
  conversation.set(message.ts, message);
  notify(state);
}

/** A message as it stands now, if it exists. */
export function findMessage(state: State, channel: string, ts: string): FakeSlackMessage | undefined {
  return state.messages.get(channel)?.get(ts);
}

/** Waits for `check` on this fake's state (see the shared {@link sharedWaitUntil}). */
export function waitUntil<T>(
  state: State,
  check: () => T | undefined | null | false,
  timeoutMs: number = DEFAULT_WAIT_MS,
  what = "a condition",
): Promise<T> {
  return sharedWaitUntil(state, "Slack", check, timeoutMs, what);
}
