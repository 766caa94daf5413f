/** The fake's in-memory world: guilds, channels, users, messages, interactions, sessions, change signals. */
import type { WebSocket } from "ws";
import { waitUntil as sharedWaitUntil } from "../wait.ts";
import { DEFAULT_WAIT_MS } from "./limits.ts";
import type {
  ApiCall,
  DcChannel,
  DcComponent,
  DcMessage,
  DcUser,
  Failure,
  FakeInteraction,
  FakeMessage,
} from "./types.ts";

/** A guild as the fake keeps it. */
export interface Guild {
  id: string;
  name: string;
  preferredLocale: string;
  ownerId: string;
  /** Members by user id (the bot is one); users join when they first write or click there. */
  members: Map<string, { joinedAt: string }>;
}

/** A known user and the locale their client sends with interactions. */
export interface KnownUser {
  user: DcUser;
  locale: string;
}

/** An interaction plus what the fake needs to check its responses. */
export interface InteractionState {
  record: FakeInteraction;
  /** The message the component is on (types 6/7 and `@original` after them edit it). */
  message?: { channelId: string; id: string };
  /** Performance-clock time of creation, for the 3 s deadline. */
  createdAtMs: number;
}

/** One IDENTIFYed gateway session; kept after a drop so that RESUME can replay what it missed. */
export interface Session {
  id: string;
  intents: number;
  seq: number;
  /** Every dispatch sent (or due) on this session, for RESUME. */
  log: Array<{ op: 0; t: string; s: number; d: unknown }>;
  socket: WebSocket | undefined;
  /** False once the client closed normally (1000/1001): such sessions get nothing more. */
  alive: boolean;
  heartbeats: number;
  resumes: number;
}

/** Everything the fake knows. Mutated by the REST handlers, the gateway and the user helpers. */
export interface State {
  token: string;
  bot: DcUser;
  applicationId: string;
  now: () => number;
  responseDeadlineMs: number;
  heartbeatIntervalMs: number;
  /** Whether the app may use the privileged Message Content intent (else IDENTIFY with it → 4014). */
  privilegedIntents: boolean;
  calls: ApiCall[];
  users: Map<string, KnownUser>;
  guilds: Map<string, Guild>;
  channels: Map<string, DcChannel>;
  /** Public messages per channel id, in order. */
  messages: Map<string, Map<string, FakeMessage>>;
  /** Ephemeral messages, by the user who sees them. */
  ephemerals: Map<string, FakeMessage[]>;
  /** Every button a message ever showed, by message id (a stale screen can still click them). */
  shownButtons: Map<string, DcComponent[]>;
  /** DM channel id by user id. */
  dms: Map<string, string>;
  interactions: Map<string, InteractionState>;
  interactionList: FakeInteraction[];
  failures: Map<string, Failure[]>;
  sessions: Map<string, Session>;
  lastSnowflake: bigint;
  closed: boolean;
  listeners: Set<() => void>;
}

const DISCORD_EPOCH = 1_420_070_400_000n;

/** A fresh snowflake: increasing, with the fake's clock in its timestamp bits (as discord.js reads them). */
export function snowflake(state: State): string {
  let id = (BigInt(Math.max(0, Math.floor(state.now()))) - DISCORD_EPOCH) << 22n;
  if (id <= state.lastSnowflake) id = state.lastSnowflake + 1n;
  state.lastSnowflake = id;
  return id.toString();
}

/** ISO timestamp of the fake's clock. */
export function isoNow(state: State): string {
  return new Date(state.now()).toISOString();
}

/** Tells every waiter that something changed. */
export function notify(state: State): void {
  for (const listener of [...state.listeners]) listener();
}

/** Waits for `check` on this fake's state (see the shared {@link sharedWaitUntil}). */
export function waitUntil<T>(
  state: State,
  check: () => T | undefined | null | false,
  timeoutMs: number = DEFAULT_WAIT_MS,
  what = "a condition",
): Promise<T> {
  return sharedWaitUntil(state, "Discord", check, timeoutMs, what);
}

/** The guild a channel belongs to (threads through their parent). */
export function guildOf(state: State, channel: DcChannel): Guild | undefined {
  return channel.guild_id === undefined ? undefined : state.guilds.get(channel.guild_id);
}

/** Makes the user a member of the guild (first message or click there). */
export function join(state: State, guild: Guild, userId: string): void {
  if (!guild.members.has(userId)) guild.members.set(userId, { joinedAt: isoNow(state) });
}

/** The DM channel between the bot and a user, created on first use. */
export function dmChannel(state: State, user: DcUser): DcChannel {
  const known = state.dms.get(user.id);
  const existing = known === undefined ? undefined : state.channels.get(known);
  if (existing) return existing;
  const channel: DcChannel = {
    id: snowflake(state),
    type: 1,
    last_message_id: null,
    flags: 0,
    recipients: [{ ...user }],
  };
  state.channels.set(channel.id, channel);
  state.dms.set(user.id, channel.id);
  return channel;
}

/** A stored public message, if it exists. */
export function findMessage(state: State, channelId: string, messageId: string): FakeMessage | undefined {
  return state.messages.get(channelId)?.get(messageId);
}

/** Remembers the buttons a message shows now, for stale clicks later. */
export function rememberButtons(state: State, message: FakeMessage): void {
  const shown = state.shownButtons.get(message.id) ?? [];
  for (const row of message.components) {
    for (const c of row.components ?? []) if (c.type === 2) shown.push(structuredClone(c));
  }
  state.shownButtons.set(message.id, shown);
}

/** Stores a public message in its channel. */
export function storeMessage(state: State, message: FakeMessage): void {
  let list = state.messages.get(message.channel_id);
  if (!list) {
    list = new Map();
    state.messages.set(message.channel_id, list);
  }
  list.set(message.id, message);
  rememberButtons(state, message);
  const channel = state.channels.get(message.channel_id);
  if (channel) channel.last_message_id = message.id;
  notify(state);
}

/** Stores an ephemeral message for the one user who sees it. */
export function storeEphemeral(state: State, userId: string, message: FakeMessage): void {
  state.ephemerals.set(userId, [...(state.ephemerals.get(userId) ?? []), message]);
  notify(state);
}

/** The API view of a stored message (without the fake's own fields). */
export function apiMessage(message: FakeMessage): DcMessage {
  const { pings: _p, allowed_mentions: _a, visible_to: _v, ...rest } = message;
  return structuredClone(rest);
}
