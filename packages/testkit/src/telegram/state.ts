/** The fake's in-memory world: chats, messages, the update queue, the webhook, and change signals. */

import { waitUntil as sharedWaitUntil } from "../wait.ts";
import { DEFAULT_WAIT_MS } from "./limits.ts";
import type {
  ApiCall,
  CallbackAnswer,
  DroppedUpdate,
  Failure,
  FakeMessage,
  TgCallbackQuery,
  TgChat,
  TgMessage,
  TgReplyMarkup,
  TgUpdate,
  TgUser,
  WebhookDelivery,
} from "./types.ts";

/** A message plus what the bot sent to make it (kept for {@link FakeMessage}). */
export interface StoredMessage {
  message: TgMessage;
  sourceText: string;
  parseMode?: string;
  markup?: TgReplyMarkup;
  /** The bot's reaction on the message (`setMessageReaction`), as emoji. */
  reactions?: string[];
}

/** The webhook as set with `setWebhook`. */
export interface Webhook {
  url: string;
  secretToken?: string;
  maxConnections: number;
  lastErrorDate?: number;
  lastErrorMessage?: string;
}

/** Calls of one method held open by `tg.hold(method)`, each waiting to be carried out or cut. */
export interface HeldMethod {
  /** The calls held so far (live). */
  calls: ApiCall[];
  /** One resume per call still held: `true` carries it out, `false` cuts its connection unanswered. */
  waiting: Array<(carryOut: boolean) => void>;
}

/** Everything the fake knows. Mutated by the method handlers and the user helpers. */
export interface State {
  token: string;
  bot: TgUser;
  now: () => number;
  calls: ApiCall[];
  callbackAnswers: CallbackAnswer[];
  deliveries: WebhookDelivery[];
  dropped: DroppedUpdate[];
  chats: Map<number, TgChat>;
  /** Every user made with {@link FakeTelegram.user}, by id (what `getChat` knows about people). */
  users: Map<number, TgUser>;
  /** Group messages privacy mode kept from the bot. */
  withheld: TgMessage[];
  /** Chats whose admins limited the reactions (emoji allowed there); other chats allow every emoji. */
  availableReactions: Map<number, string[]>;
  /** Privacy mode (Telegram's default): in groups the bot gets only replies to it, commands and mentions. */
  privacyMode: boolean;
  messages: Map<number, Map<number, StoredMessage>>;
  lastMessageId: Map<number, number>;
  /** Unconfirmed updates, oldest first. */
  queue: TgUpdate[];
  /** Every update ever made, for {@link FakeTelegram.redeliver}. */
  history: Map<number, TgUpdate>;
  /** Updates to hand out once more, before the queue. */
  redeliveries: TgUpdate[];
  nextUpdateId: number;
  allowedUpdates: string[];
  callbackQueries: Map<string, { query: TgCallbackQuery; answered: boolean }>;
  nextCallbackQueryId: number;
  webhook: Webhook | undefined;
  failures: Map<string, Failure[]>;
  commands: Map<string, unknown[]>;
  /** Methods whose calls are held open, by lower-case name. */
  holds: Map<string, HeldMethod>;
  /** Bumped by every `getUpdates`, so a held older one knows it was superseded. */
  pollGeneration: number;
  closed: boolean;
  listeners: Set<() => void>;
}

/** Creates an empty world for a bot. */
export function createState(token: string, bot: TgUser, now: () => number, privacyMode = true): State {
  return {
    token,
    bot,
    now,
    calls: [],
    callbackAnswers: [],
    deliveries: [],
    dropped: [],
    chats: new Map(),
    users: new Map(),
    withheld: [],
    availableReactions: new Map(),
    privacyMode,
    messages: new Map(),
    lastMessageId: new Map(),
    queue: [],
    history: new Map(),
    redeliveries: [],
    nextUpdateId: 1,
    allowedUpdates: [],
    callbackQueries: new Map(),
    nextCallbackQueryId: 1,
    webhook: undefined,
    failures: new Map(),
    commands: new Map(),
    holds: new Map(),
    pollGeneration: 0,
    closed: false,
    listeners: new Set(),
  };
}

/** Tells every waiter that something changed. */
export function notify(state: State): void {
  for (const listener of [...state.listeners]) listener();
}

/** Unix time in seconds, as Telegram dates are. */
export function unixNow(state: State): number {
  return Math.floor(state.now() / 1000);
}

/** Waits for `check` on this fake's state (see the shared {@link sharedWaitUntil}). */
export function waitUntil<T>(
  state: State,
  check: () => T | undefined | null | false,
  timeoutMs: number = DEFAULT_WAIT_MS,
  what = "a condition",
): Promise<T> {
  return sharedWaitUntil(state, "Telegram", check, timeoutMs, what);
}

/** Resolves on the next change, after `ms`, or when `signal` aborts — whichever comes first. */
export function nextChange(state: State, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      state.listeners.delete(done);
      signal.removeEventListener("abort", done);
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(done, ms);
    state.listeners.add(done);
    signal.addEventListener("abort", done);
  });
}

/** The private chat with a user: their names, as `getChat` shows them. */
export function privateChat(user: TgUser): TgChat {
  const chat: TgChat = { id: user.id, type: "private", first_name: user.first_name };
  if (user.last_name !== undefined) chat.last_name = user.last_name;
  if (user.username !== undefined) chat.username = user.username;
  return chat;
}

/** The chat with this id, made up on first sight: private for positive ids, else a (super)group. */
export function chatFor(state: State, id: number, privateWith?: TgUser, forum = false): TgChat {
  const known = state.chats.get(id);
  if (known) {
    if (forum && known.type === "supergroup") known.is_forum = true;
    if (privateWith && known.type === "private") Object.assign(known, privateChat(privateWith));
    return known;
  }
  let chat: TgChat;
  if (id > 0) {
    const person = privateWith ?? state.users.get(id);
    chat = person ? privateChat(person) : { id, type: "private", first_name: `User ${id}` };
  } else if (id <= -1_000_000_000_000 || forum) {
    chat = { id, type: "supergroup", title: `Fake supergroup ${-id}` };
    if (forum) chat.is_forum = true;
  } else {
    chat = { id, type: "group", title: `Fake group ${-id}` };
  }
  state.chats.set(id, chat);
  return chat;
}

/** The next message id in a chat (ids are per chat, shared by the bot and the users). */
export function nextMessageId(state: State, chatId: number): number {
  const id = (state.lastMessageId.get(chatId) ?? 0) + 1;
  state.lastMessageId.set(chatId, id);
  return id;
}

/** Stores a message in its chat. */
export function storeMessage(state: State, stored: StoredMessage): void {
  const chatId = stored.message.chat.id;
  let chat = state.messages.get(chatId);
  if (!chat) {
    chat = new Map();
    state.messages.set(chatId, chat);
  }
  chat.set(stored.message.message_id, stored);
  notify(state);
}

/** A stored message, if it exists (and was not deleted). */
export function findMessage(state: State, chatId: number, messageId: number): StoredMessage | undefined {
  return state.messages.get(chatId)?.get(messageId);
}

/** A message as it may appear inside another (`reply_to_message`, which never nests further). */
export function shallow(message: TgMessage): TgMessage {
  const { reply_to_message: _, ...rest } = message;
  return structuredClone(rest);
}

/** The public, test-facing view of a stored message. */
export function toFakeMessage(stored: StoredMessage): FakeMessage {
  const m = stored.message;
  const view: FakeMessage = {
    message_id: m.message_id,
    chat_id: m.chat.id,
    from: { ...m.from },
    date: m.date,
    text: m.text,
    entities: structuredClone(m.entities ?? []),
    source_text: stored.sourceText,
  };
  if (stored.parseMode !== undefined) view.parse_mode = stored.parseMode;
  if (stored.markup !== undefined) view.reply_markup = structuredClone(stored.markup);
  if (m.message_thread_id !== undefined) view.message_thread_id = m.message_thread_id;
  if (m.reply_to_message !== undefined) view.reply_to_message_id = m.reply_to_message.message_id;
  if (m.edit_date !== undefined) view.edit_date = m.edit_date;
  if (stored.reactions !== undefined) view.reactions = [...stored.reactions];
  return view;
}

/** The kind of an update (`message`, `callback_query`). */
export function updateType(update: TgUpdate): string {
  return Object.keys(update).find((key) => key !== "update_id") ?? "unknown";
}

/** Adds an update to the queue (dropped if `allowed_updates` excludes its kind). */
export function enqueue(state: State, body: Omit<TgUpdate, "update_id">): TgUpdate {
  const update: TgUpdate = { update_id: state.nextUpdateId++, ...structuredClone(body) };
  state.history.set(update.update_id, update);
  const type = updateType(update);
  if (state.allowedUpdates.length > 0 && !state.allowedUpdates.includes(type)) {
    state.dropped.push({ update, reason: `"${type}" is not in allowed_updates`, at: state.now() });
  } else {
    state.queue.push(update);
  }
  notify(state);
  return update;
}
