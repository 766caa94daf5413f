/** The Web API methods the fake answers, and the dispatcher that checks tokens, records calls and fails on demand. */
import { checkView } from "./blocks.ts";
import { conversationsHistory, conversationsReplies } from "./history.ts";
import { TRIGGER_ID_TTL_MS } from "./limits.ts";
import { addReaction, postEphemeral, postMessage, updateMessage } from "./messages.ts";
import {
  ApiError,
  isObject,
  optBool,
  optJson,
  optStr,
  type Params,
  reqStr,
  validationError,
} from "./params.ts";
import { dmFor, nextId, notify, type State } from "./state.ts";
import type { ApiCall, Failure } from "./types.ts";

/** A method handler: returns the fields of `{ ok: true, … }`, or throws {@link ApiError}. */
type Handler = (state: State, params: Params) => Record<string, unknown>;

/** An HTTP answer of the Web API. */
export interface ApiAnswer {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown> | string;
  /** The work is done but the connection is cut instead of answering (`{ answerLost: true }`). */
  cut?: true;
}

function authTest(state: State): Record<string, unknown> {
  return {
    url: `https://${state.team.domain}.slack.com/`,
    team: "Fake Workspace",
    user: state.app.botName,
    team_id: state.team.id,
    user_id: state.app.botUserId,
    bot_id: state.app.botId,
    is_enterprise_install: false,
  };
}

function conversationsOpen(state: State, params: Params): Record<string, unknown> {
  const users = (optStr(params, "users") ?? "")
    .split(",")
    .map((u) => u.trim())
    .filter(Boolean);
  if (users.length === 0) throw new ApiError("users_list_not_supplied");
  if (users.length > 1) throw new ApiError("not_supported", { detail: "the fake opens 1:1 DMs only" });
  const user = users[0] ?? "";
  if (!/^[UW][A-Z0-9]{2,}$/.test(user)) throw new ApiError("user_not_found");
  const already = state.dms.has(user);
  const id = dmFor(state, user);
  return optBool(params, "return_im")
    ? { channel: { id, is_im: true, user, created: Math.floor(state.now() / 1000) }, already_open: already }
    : { channel: { id }, ...(already ? { already_open: true } : {}) };
}

function usersInfo(state: State, params: Params): Record<string, unknown> {
  const id = reqStr(params, "user", "user_not_found");
  const user = state.users.get(id);
  if (!user) throw new ApiError("user_not_found");
  const info: Record<string, unknown> = {
    id: user.id,
    team_id: state.team.id,
    name: user.name,
    deleted: false,
    real_name: user.real_name ?? user.name,
    tz: user.tz ?? "Europe/Berlin",
    tz_label: "Central European Time",
    tz_offset: 3600,
    is_bot: user.bot_id !== undefined,
    is_admin: false,
    updated: 1_700_000_000,
    profile: {
      real_name: user.real_name ?? user.name,
      display_name: user.display_name ?? "",
      ...(user.bot_id === undefined ? {} : { bot_id: user.bot_id }),
    },
  };
  if (optBool(params, "include_locale")) info.locale = user.locale ?? "en-US";
  return { user: info };
}

function viewsOpen(state: State, params: Params): Record<string, unknown> {
  const triggerId = optStr(params, "trigger_id");
  if (triggerId === undefined) {
    throw new ApiError("invalid_arguments", { response_metadata: { messages: ["missing `trigger_id`"] } });
  }
  const trigger = state.triggers.get(triggerId);
  if (!trigger) throw new ApiError("invalid_trigger_id");
  if (trigger.exchanged) throw new ApiError("exchanged_trigger_id");
  if (state.now() - trigger.issuedAt > TRIGGER_ID_TTL_MS) throw new ApiError("expired_trigger_id");
  const view = optJson(params, "view", "invalid_arguments");
  const problems = checkView(view);
  if (problems.length > 0 || !isObject(view)) throw validationError("invalid_arguments", problems);
  trigger.exchanged = true;
  const id = nextId(state, "V");
  const stored: Record<string, unknown> = {
    id,
    team_id: state.team.id,
    type: "modal",
    private_metadata: "",
    callback_id: "",
    external_id: "",
    clear_on_close: false,
    notify_on_close: false,
    ...structuredClone(view),
    state: { values: {} },
    hash: `${Math.floor(state.now() / 1000)}.${id}`,
    root_view_id: id,
    previous_view_id: null,
    app_id: state.app.appId,
    app_installed_team_id: state.team.id,
    bot_id: state.app.botId,
  };
  state.views.set(id, { id, user: trigger.user, view: stored, open: true });
  notify(state);
  return { view: structuredClone(stored) };
}

/** Every method the fake knows, by name. */
const methods: Record<string, Handler> = {
  "auth.test": authTest,
  "chat.postMessage": postMessage,
  "chat.update": updateMessage,
  "chat.postEphemeral": postEphemeral,
  "conversations.history": conversationsHistory,
  "conversations.open": conversationsOpen,
  "conversations.replies": conversationsReplies,
  "reactions.add": addReaction,
  "users.info": usersInfo,
  "views.open": viewsOpen,
};

function json(body: Record<string, unknown>, status = 200, headers: Record<string, string> = {}): ApiAnswer {
  return { status, headers: { "content-type": "application/json; charset=utf-8", ...headers }, body };
}

function failureAnswer(failure: Exclude<Failure, { answerLost: true }>): ApiAnswer {
  if ("ratelimited" in failure) {
    return json({ ok: false, error: "ratelimited" }, 429, { "retry-after": String(failure.ratelimited) });
  }
  if ("status" in failure) return { status: failure.status, headers: {}, body: "upstream trouble" };
  return json({ ok: false, error: failure.error });
}

/** Records a call in `state.calls` as it arrives. */
export function recordCall(state: State, method: string, params: Params): ApiCall {
  const call: ApiCall = { method, params, at: state.now() };
  state.calls.push(call);
  notify(state);
  return call;
}

/**
 * Runs one call: checks the token (bot token for Web API methods, app token for
 * `apps.connections.open`), records it in `state.calls` (unless `call` was recorded on arrival),
 * applies a pending failure, and turns the handler's result or {@link ApiError} into Slack's JSON answer.
 */
export function invoke(
  state: State,
  method: string,
  params: Params,
  token: string | undefined,
  openSocket: () => string,
  call: ApiCall = recordCall(state, method, params),
): ApiAnswer {
  const finish = (answer: ApiAnswer): ApiAnswer => {
    if (typeof answer.body === "object" && answer.body.ok === false) {
      call.error = String(answer.body.error);
      const meta = answer.body.response_metadata;
      if (isObject(meta) && Array.isArray(meta.messages)) call.messages = meta.messages.map(String);
    } else if (answer.status !== 200) {
      call.error = `HTTP ${answer.status}`;
    }
    notify(state);
    return answer;
  };
  const given = token ?? optStr(params, "token");
  const isApp = method === "apps.connections.open";
  if (given === undefined) return finish(json({ ok: false, error: "not_authed" }));
  const expected = isApp ? state.app.appToken : state.app.botToken;
  if (given !== expected) {
    const other = isApp ? state.app.botToken : state.app.appToken;
    return finish(json({ ok: false, error: given === other ? "not_allowed_token_type" : "invalid_auth" }));
  }
  const failure = state.failures.get(method)?.shift();
  const lost = failure !== undefined && "answerLost" in failure;
  if (failure && !("answerLost" in failure)) return finish(failureAnswer(failure));
  if (isApp) return finish(json({ ok: true, url: openSocket() }));
  const handler = methods[method];
  if (!handler) return finish(json({ ok: false, error: "unknown_method" }));
  try {
    const answer = json({ ok: true, ...handler(state, params) });
    if (!lost) return finish(answer);
    call.error = "answer lost (done, then the connection was cut)";
    return finish({ ...answer, cut: true });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return finish(json({ ok: false, error: error.error, ...error.extra }, error.status));
  }
}
