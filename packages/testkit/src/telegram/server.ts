/** The HTTP side: a node:http server on 127.0.0.1 that speaks the Bot API to the real grammY. */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { DEFAULT_WAIT_MS } from "./limits.ts";
import { type ApiResponse, invoke } from "./methods.ts";
import type { Params } from "./params.ts";
import { renderMessageText } from "./screen.ts";
import {
  createState,
  findMessage,
  type HeldMethod,
  notify,
  type State,
  toFakeMessage,
  waitUntil,
} from "./state.ts";
import type {
  ApiCall,
  CallbackAnswer,
  DroppedUpdate,
  Failure,
  FakeMessage,
  TgMessage,
  TgUpdate,
  UserInit,
  WebhookDelivery,
} from "./types.ts";
import { createWebhookPump } from "./updates.ts";
import { createFakeUser, type FakeUser } from "./users.ts";

/** Options of {@link createFakeTelegram}. */
export interface FakeTelegramOptions {
  /** Bot token; the bot id is the part before `:`. Default `"123456:TEST"`. */
  token?: string;
  /** Default `"fake_test_bot"`. */
  botUsername?: string;
  /** Clock for message dates (epoch ms). Default `Date.now`. */
  now?: () => number;
  /**
   * Privacy mode, on by default as on Telegram: in groups the bot only gets replies to its messages,
   * commands and mentions of it. `false` is a bot that reads every group message.
   */
  privacyMode?: boolean;
}

/** Calls of one method that {@link FakeTelegram.hold} keeps open: Telegram hanging mid-request. */
export interface HeldCalls {
  /** The calls held so far, in arrival order (live; they are in `calls` too). */
  readonly calls: readonly ApiCall[];
  /**
   * Stops holding: every held call is carried out and answered — also when its caller has gone away,
   * as Telegram finishes work it received (the message then exists, and nobody knows its id).
   */
  release(): void;
  /**
   * Stops holding: every held call is dropped unanswered and its connection cut (the caller sees a
   * network failure), as if the request never reached Telegram. Nothing changes in any chat.
   */
  drop(): void;
}

/** A running fake Telegram Bot API. */
export interface FakeTelegram {
  /** Pass to grammY as `client.apiRoot` (no trailing slash). */
  readonly apiRoot: string;
  readonly token: string;
  readonly bot: { id: number; username: string; first_name: string };
  /** Every call with the right token, in arrival order (live). */
  readonly calls: readonly ApiCall[];
  /** Every accepted `answerCallbackQuery` (live). */
  readonly callbackAnswers: readonly CallbackAnswer[];
  /** Every try at POSTing an update to the webhook (live). */
  readonly deliveries: readonly WebhookDelivery[];
  /** Updates given up on: webhook retries exhausted, or excluded by `allowed_updates` (live). */
  readonly dropped: readonly DroppedUpdate[];
  /** Group messages the bot never received because of privacy mode (live). */
  readonly withheld: readonly TgMessage[];
  /** Turns privacy mode on or off (BotFather's /setprivacy); applies to messages sent from now on. */
  setPrivacyMode(enabled: boolean): void;
  /** The messages of a chat as they stand now (edits applied, deletions gone), oldest first. */
  messages(chatId: number): FakeMessage[];
  /** One message as it stands now. */
  message(chatId: number, messageId: number): FakeMessage | undefined;
  /**
   * One message as a person sees it, as text: the text, then each inline keyboard row as
   * `[label]  [label]`, a force-reply's input field and the bot's reaction (see `screen.ts`). Throws
   * when there is no such message.
   */
  messageText(chatId: number, messageId: number): string;
  /**
   * Limits the reactions allowed in a chat, as its admins can (`undefined`: every emoji again). A bot's
   * `setMessageReaction` with another emoji there gets `REACTION_INVALID`.
   */
  setAvailableReactions(chatId: number, emoji: readonly string[] | undefined): void;
  /** Updates not yet confirmed by the bot (getUpdates `offset`) or delivered to the webhook. */
  pendingUpdates(): TgUpdate[];
  /** A user who can write to the bot and tap its buttons. */
  user(from: UserInit): FakeUser;
  /** Makes the next call of `method` fail as given (queued: call twice to fail twice). */
  failNext(method: string, failure: Failure): void;
  /**
   * Holds every call of `method` (e.g. `"sendMessage"`, `"editMessageText"`) open from now on, before the
   * fake acts on it, until the handle releases or drops them. Throws if `method` is already held.
   */
  hold(method: string): HeldCalls;
  /** Hands an earlier update (same `update_id`) to the bot once more, as a duplicate delivery. */
  redeliver(updateId: number): void;
  /** Resolves with the first call (past or future) matching `predicate`; rejects after `timeoutMs`. */
  waitFor(predicate: (call: ApiCall) => boolean, timeoutMs?: number): Promise<ApiCall>;
  /** Resolves with the first truthy value of `check`, re-run on every change; rejects after `timeoutMs`. */
  waitUntil<T>(check: () => T | undefined | null | false, timeoutMs?: number): Promise<T>;
  /** Stops the server: held polls answer `[]`, connections are cut, waits reject. */
  close(): Promise<void>;
}

async function readParams(req: IncomingMessage, url: URL): Promise<Params> {
  const params: Params = Object.fromEntries(url.searchParams);
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  if (body.length === 0) return params;
  const type = req.headers["content-type"] ?? "";
  if (type.includes("application/json")) {
    const json: unknown = JSON.parse(body.toString("utf8"));
    return typeof json === "object" && json !== null && !Array.isArray(json)
      ? { ...params, ...json }
      : params;
  }
  const form = await new Response(body, { headers: { "content-type": type } }).formData();
  for (const [key, value] of form) {
    if (typeof value !== "string") {
      params[key] = { file: value.name, size: value.size };
    } else if (/^\s*[[{]/.test(value)) {
      try {
        params[key] = JSON.parse(value);
      } catch {
        params[key] = value;
      }
    } else {
      params[key] = value;
    }
  }
  return params;
}

function send(res: ServerResponse, status: number, body: ApiResponse): void {
  if (res.destroyed || res.writableEnded) return;
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

async function handle(state: State, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  const match = /^\/bot([^/]*)\/([A-Za-z]+)$/.exec(url.pathname);
  if (!match) return send(res, 404, { ok: false, error_code: 404, description: "Not Found" });
  if (match[1] !== state.token)
    return send(res, 401, { ok: false, error_code: 401, description: "Unauthorized" });
  let params: Params;
  try {
    params = await readParams(req, url);
  } catch {
    return send(res, 400, {
      ok: false,
      error_code: 400,
      description: "Bad Request: can't parse request body",
    });
  }
  const gone = new AbortController();
  res.once("close", () => gone.abort());
  const response = await invoke(state, match[2] ?? "", params, gone.signal);
  if (response === undefined) {
    res.destroy(); // dropped: no answer, the connection is cut
    return;
  }
  send(res, response.ok ? 200 : response.error_code, response);
}

/**
 * Starts a fake Telegram Bot API on 127.0.0.1 (random port) for the real grammY to talk to.
 *
 * @example
 * ```ts
 * const tg = await createFakeTelegram();
 * const bot = new Bot(tg.token, { client: { apiRoot: tg.apiRoot } });
 * bot.on("message:text", (ctx) => ctx.reply(`echo: ${ctx.message.text}`));
 * await new Promise<void>((onStart) => void bot.start({ onStart: () => onStart() }));
 * tg.user({ id: 42, first_name: "Ada" }).sendText(42, "hi");
 * await tg.waitFor((call) => call.method === "sendMessage");
 * await bot.stop();
 * await tg.close();
 * ```
 */
export async function createFakeTelegram(options: FakeTelegramOptions = {}): Promise<FakeTelegram> {
  const token = options.token ?? "123456:TEST";
  const botId = Number(token.split(":")[0]);
  if (!Number.isSafeInteger(botId) || botId <= 0) throw new Error(`fake Telegram: bad token "${token}"`);
  const username = options.botUsername ?? "fake_test_bot";
  const bot = { id: botId, is_bot: true, first_name: "Fake Test Bot", username };
  const state = createState(token, bot, options.now ?? Date.now, options.privacyMode ?? true);
  const stopSignal = new AbortController();
  const pump = createWebhookPump(state, (method, params) => invoke(state, method, params, stopSignal.signal));
  state.listeners.add(pump.kick);

  const server = createServer((req, res) => {
    handle(state, req, res).catch((error: unknown) => {
      const description = `Internal Server Error: ${error instanceof Error ? error.message : String(error)}`;
      send(res, 500, { ok: false, error_code: 500, description });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    apiRoot: `http://127.0.0.1:${port}`,
    token,
    bot: { id: bot.id, username, first_name: bot.first_name },
    calls: state.calls,
    callbackAnswers: state.callbackAnswers,
    deliveries: state.deliveries,
    dropped: state.dropped,
    withheld: state.withheld,
    setPrivacyMode(enabled) {
      state.privacyMode = enabled;
    },
    messages: (chatId) => [...(state.messages.get(chatId)?.values() ?? [])].map(toFakeMessage),
    message(chatId, messageId) {
      const stored = findMessage(state, chatId, messageId);
      return stored && toFakeMessage(stored);
    },
    messageText(chatId, messageId) {
      const stored = findMessage(state, chatId, messageId);
      if (!stored) throw new Error(`fake Telegram: no message ${messageId} in chat ${chatId}`);
      return renderMessageText(stored);
    },
    setAvailableReactions(chatId, emoji) {
      if (emoji === undefined) state.availableReactions.delete(chatId);
      else state.availableReactions.set(chatId, [...emoji]);
    },
    pendingUpdates: () => structuredClone(state.queue),
    user: (from) => createFakeUser(state, from),
    failNext(method, failure) {
      const key = method.toLowerCase();
      state.failures.set(key, [...(state.failures.get(key) ?? []), failure]);
    },
    hold(method) {
      const key = method.toLowerCase();
      if (state.holds.has(key)) throw new Error(`fake Telegram: ${method} is already held`);
      const held: HeldMethod = { calls: [], waiting: [] };
      state.holds.set(key, held);
      const end = (carryOut: boolean) => {
        if (state.holds.get(key) === held) state.holds.delete(key);
        for (const resume of held.waiting.splice(0)) resume(carryOut);
        notify(state);
      };
      return { calls: held.calls, release: () => end(true), drop: () => end(false) };
    },
    redeliver(updateId) {
      const update = state.history.get(updateId);
      if (!update) throw new Error(`fake Telegram: no update ${updateId} to redeliver`);
      state.redeliveries.push(structuredClone(update));
      notify(state);
    },
    waitFor: (predicate, timeoutMs = DEFAULT_WAIT_MS) =>
      waitUntil(state, () => state.calls.find(predicate), timeoutMs, "a matching Bot API call"),
    waitUntil: (check, timeoutMs = DEFAULT_WAIT_MS) => waitUntil(state, check, timeoutMs),
    async close() {
      if (state.closed) return;
      state.closed = true;
      stopSignal.abort();
      for (const held of state.holds.values()) for (const resume of held.waiting.splice(0)) resume(false);
      state.holds.clear();
      notify(state);
      await pump.stop();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await new Promise<void>((resolve) => setImmediate(resolve));
      server.closeAllConnections();
      await closed;
    },
  };
}
