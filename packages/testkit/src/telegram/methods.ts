/** The Bot API methods the fake answers, and the dispatcher that records calls and injects failures. */
import { BOT_COMMAND_PATTERN, BOT_COMMANDS_MAX, CALLBACK_ANSWER_TEXT_MAX_CHARS } from "./limits.ts";
import { deleteMessage, editMessageReplyMarkup, editMessageText, sendMessage } from "./messages.ts";
import {
  ApiError,
  badRequest,
  charCount,
  chatId,
  int,
  isObject,
  optBool,
  optInt,
  optJson,
  optStr,
  type Params,
} from "./params.ts";
import { setMessageReaction } from "./reactions.ts";
import { chatFor, type HeldMethod, notify, type State } from "./state.ts";
import type { ApiCall, CallbackAnswer, Failure } from "./types.ts";
import { Described, deleteWebhook, getUpdates, getWebhookInfo, setWebhook } from "./updates.ts";

/** A method handler: returns the `result`, or throws {@link ApiError}. */
export type Handler = (state: State, params: Params, signal: AbortSignal) => unknown;

/** The JSON body the Bot API answers with. */
export type ApiResponse =
  | { ok: true; result: unknown; description?: string }
  | { ok: false; error_code: number; description: string; parameters?: { retry_after?: number } };

const CHAT_ACTIONS = new Set([
  "typing",
  "upload_photo",
  "record_video",
  "upload_video",
  "record_voice",
  "upload_voice",
  "upload_document",
  "choose_sticker",
  "find_location",
  "record_video_note",
  "upload_video_note",
]);

const QUERY_INVALID = "query is too old and response timeout expired or query ID is invalid";

function getMe(state: State): unknown {
  return {
    ...state.bot,
    can_join_groups: true,
    can_read_all_group_messages: !state.privacyMode,
    supports_inline_queries: false,
    can_connect_to_business: false,
    has_main_web_app: false,
  };
}

function answerCallbackQuery(state: State, params: Params): boolean {
  const id = optStr(params, "callback_query_id") ?? "";
  const text = optStr(params, "text");
  if (text !== undefined && charCount(text) > CALLBACK_ANSWER_TEXT_MAX_CHARS)
    throw badRequest("MESSAGE_TOO_LONG");
  const query = state.callbackQueries.get(id);
  if (!query || query.answered) throw badRequest(QUERY_INVALID);
  query.answered = true;
  const answer: CallbackAnswer = {
    callback_query_id: id,
    show_alert: optBool(params, "show_alert") === true,
  };
  if (text !== undefined) answer.text = text;
  const url = optStr(params, "url");
  if (url !== undefined) answer.url = url;
  const cacheTime = optInt(params, "cache_time");
  if (cacheTime !== undefined) answer.cache_time = cacheTime;
  state.callbackAnswers.push(answer);
  notify(state);
  return true;
}

function sendChatAction(_state: State, params: Params): boolean {
  chatId(params);
  if (!CHAT_ACTIONS.has(optStr(params, "action") ?? ""))
    throw badRequest("wrong parameter action in request");
  return true;
}

/**
 * `getChat`: a user the fake knows (made with `tg.user(...)`) as their private chat, with their names;
 * a group as made up on first sight. A private chat with someone the fake never saw → "chat not found".
 */
function getChat(state: State, params: Params): unknown {
  const id = chatId(params);
  if (id > 0 && !state.users.has(id) && !state.chats.has(id)) throw badRequest("chat not found");
  return { ...chatFor(state, id), accent_color_id: 0, max_reaction_count: 11 };
}

/**
 * `getChatMember` in a group: any user the fake knows counts as a member there; someone it never saw →
 * "user not found". In a private chat, only its own user is a member.
 */
function getChatMember(state: State, params: Params): unknown {
  const chat = chatId(params);
  const userId = int(params, "user_id");
  const user = state.users.get(userId);
  if (!user || (chat > 0 && chat !== userId)) throw badRequest("user not found");
  return { status: "member", user: { ...user } };
}

function commandsKey(params: Params): string {
  const scope = optJson(params, "scope", "scope JSON object");
  return JSON.stringify([
    isObject(scope) ? scope : { type: "default" },
    optStr(params, "language_code") ?? "",
  ]);
}

function setMyCommands(state: State, params: Params): boolean {
  const commands = optJson(params, "commands", "commands JSON array") ?? [];
  if (!Array.isArray(commands) || commands.length > BOT_COMMANDS_MAX)
    throw badRequest("BOT_COMMANDS_TOO_MUCH");
  for (const command of commands) {
    if (
      !isObject(command) ||
      typeof command.command !== "string" ||
      !BOT_COMMAND_PATTERN.test(command.command)
    ) {
      throw badRequest("BOT_COMMAND_INVALID");
    }
  }
  state.commands.set(commandsKey(params), commands);
  return true;
}

/** Every method the fake knows, by lower-case name (Bot API method names are case-insensitive). */
export const methods: Record<string, Handler> = {
  getme: getMe,
  logout: () => true,
  close: () => true,
  getupdates: getUpdates,
  setwebhook: setWebhook,
  deletewebhook: deleteWebhook,
  getwebhookinfo: getWebhookInfo,
  sendmessage: sendMessage,
  editmessagetext: editMessageText,
  editmessagereplymarkup: editMessageReplyMarkup,
  deletemessage: deleteMessage,
  setmessagereaction: setMessageReaction,
  answercallbackquery: answerCallbackQuery,
  sendchataction: sendChatAction,
  getchat: getChat,
  getchatmember: getChatMember,
  setmycommands: setMyCommands,
  getmycommands: (state, params) => state.commands.get(commandsKey(params)) ?? [],
  deletemycommands: (state, params) => state.commands.delete(commandsKey(params)) || true,
};

function failureResponse(failure: Failure): ApiResponse {
  switch (failure.status) {
    case 429:
      return {
        ok: false,
        error_code: 429,
        description: `Too Many Requests: retry after ${failure.retry_after}`,
        parameters: { retry_after: failure.retry_after },
      };
    case 500:
      return { ok: false, error_code: 500, description: "Internal Server Error" };
    case 502:
      return { ok: false, error_code: 502, description: "Bad Gateway" };
    default:
      return { ok: false, error_code: failure.status, description: failure.description };
  }
}

/** Waits while `hold` holds the call; true when it is to be carried out, false when it is cut. */
function heldUntilReleased(state: State, hold: HeldMethod, call: ApiCall): Promise<boolean> {
  hold.calls.push(call);
  const released = new Promise<boolean>((resolve) => hold.waiting.push(resolve));
  notify(state);
  return released;
}

/**
 * Runs one call of a known method: records it in `state.calls`, waits while `tg.hold(method)` holds
 * it, applies a pending `failNext`, and turns the handler's result or {@link ApiError}
 * into the Bot API's JSON answer. `undefined`: the call was cut unanswered (its connection is closed).
 */
export async function invoke(
  state: State,
  name: string,
  params: Params,
  signal: AbortSignal,
): Promise<ApiResponse | undefined> {
  const handler = methods[name.toLowerCase()];
  if (!handler) return { ok: false, error_code: 404, description: "Not Found" };
  const call: ApiCall = { method: name, params, at: state.now() };
  state.calls.push(call);
  const hold = state.holds.get(name.toLowerCase());
  if (hold && !(await heldUntilReleased(state, hold, call))) return undefined;
  const queued = state.failures.get(name.toLowerCase());
  const failure = queued?.shift();
  let response: ApiResponse;
  if (failure) {
    response = failureResponse(failure);
  } else {
    try {
      const result = await handler(state, params, signal);
      response =
        result instanceof Described
          ? { ok: true, result: result.result, description: result.description }
          : { ok: true, result };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      response = { ok: false, error_code: error.errorCode, description: error.description };
      if (error.parameters) response.parameters = error.parameters;
    }
  }
  if (!response.ok) call.error = { error_code: response.error_code, description: response.description };
  notify(state);
  return response;
}
