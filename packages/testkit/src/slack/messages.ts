/** Messages: `chat.postMessage`, `chat.update`, `chat.postEphemeral`, and posts to a `response_url`. */
import { checkBlocks } from "./blocks.ts";
import {
  MESSAGE_TEXT_MAX_CHARS,
  METADATA_EVENT_TYPE,
  RESPONSE_URL_MAX_USES,
  RESPONSE_URL_TTL_MS,
} from "./limits.ts";
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
import { channelType, dmFor, findMessage, nextTs, notify, type State, storeMessage } from "./state.ts";
import { deliverInBackground, eventCallback } from "./transport.ts";
import type { FakeMessageMetadata, FakeSlackMessage, SlackBlock } from "./types.ts";

const CONVERSATION = /^[CG][A-Z0-9]{2,}$/;
const USER = /^[UW][A-Z0-9]{2,}$/;

/**
 * The conversation a message goes to: a channel (`C…`, `G…`), an opened DM (`D…`), or a user id, which
 * posts into the user's DM with the app (as Slack does). Anything else → `channel_not_found`.
 */
export function resolveChannel(state: State, channel: string, allowUser = true): string {
  if (CONVERSATION.test(channel)) return channel;
  if (channel.startsWith("D") && [...state.dms.values()].includes(channel)) return channel;
  if (allowUser && USER.test(channel)) return dmFor(state, channel);
  throw new ApiError("channel_not_found");
}

/** `text` and `blocks` of a message call, validated: at least one; blocks within Block Kit limits. */
function content(params: Params): { text?: string; blocks?: SlackBlock[] } {
  const text = optStr(params, "text");
  const blocks = optJson(params, "blocks", "invalid_blocks_format");
  if (text === undefined && (blocks === undefined || (Array.isArray(blocks) && blocks.length === 0))) {
    throw new ApiError("no_text");
  }
  if (text !== undefined && text.length > MESSAGE_TEXT_MAX_CHARS) throw new ApiError("msg_too_long");
  if (blocks !== undefined) {
    const problems = checkBlocks(blocks, "message");
    if (problems.length > 0) throw validationError("invalid_blocks", problems);
  }
  const out: { text?: string; blocks?: SlackBlock[] } = {};
  if (text !== undefined) out.text = text;
  if (blocks !== undefined) out.blocks = blocks as SlackBlock[];
  return out;
}

/** A stored message as Slack returns it in `message` fields. */
export function messageObject(state: State, message: FakeSlackMessage): Record<string, unknown> {
  const out: Record<string, unknown> = {
    type: "message",
    user: message.user,
    text: message.text,
    ts: message.ts,
    team: state.team.id,
  };
  if (message.bot_id !== undefined) {
    out.bot_id = message.bot_id;
    out.app_id = state.app.appId;
  }
  if (message.blocks.length > 0) out.blocks = structuredClone(message.blocks);
  if (message.thread_ts !== undefined) out.thread_ts = message.thread_ts;
  if (message.edited !== undefined) out.edited = { ...message.edited };
  if (message.reactions !== undefined) out.reactions = structuredClone(message.reactions);
  return out;
}

/**
 * The `metadata` of a post: `{ event_type, event_payload }` (JSON). Not JSON, or not that shape →
 * `invalid_metadata_format`; an `event_type` of other characters than letters, digits, `_` and `-` is
 * ignored with the warning `invalid_metadata_schema`, as Slack does.
 */
function metadataOf(params: Params): { metadata?: FakeMessageMetadata; warning?: string } {
  const raw = optJson(params, "metadata", "invalid_metadata_format");
  if (raw === undefined) return {};
  if (!isObject(raw) || typeof raw.event_type !== "string" || !isObject(raw.event_payload))
    throw new ApiError("invalid_metadata_format");
  if (!METADATA_EVENT_TYPE.test(raw.event_type)) return { warning: "invalid_metadata_schema" };
  return { metadata: { event_type: raw.event_type, event_payload: structuredClone(raw.event_payload) } };
}

/** `chat.postMessage` (with `metadata`, listed by the history methods with `include_all_metadata`). */
export function postMessage(state: State, params: Params): Record<string, unknown> {
  const channel = resolveChannel(state, reqStr(params, "channel", "channel_not_found"));
  const { text, blocks } = content(params);
  const { metadata, warning } = metadataOf(params);
  const message: FakeSlackMessage = {
    channel,
    ts: nextTs(state),
    user: state.app.botUserId,
    bot_id: state.app.botId,
    text: text ?? "",
    blocks: blocks ?? [],
    edits: 0,
    ...(metadata === undefined ? {} : { metadata }),
  };
  const threadTs = optStr(params, "thread_ts");
  if (threadTs !== undefined) {
    // A reply to a reply joins the parent's thread: Slack threads are one level deep.
    message.thread_ts = findMessage(state, channel, threadTs)?.thread_ts ?? threadTs;
  }
  storeMessage(state, message);
  if (state.echoBotMessages) {
    const event = { ...messageObject(state, message), channel, channel_type: channelType(channel) };
    deliverInBackground(state, eventCallback(state, { ...event, event_ts: message.ts }));
  }
  return {
    channel,
    ts: message.ts,
    message: messageObject(state, message),
    ...(warning === undefined ? {} : { warning }),
  };
}

/**
 * `chat.update`. As in Slack: omitting `blocks` keeps them only when `text` is omitted too; `text`
 * without `blocks` removes the blocks; `blocks: []` removes them.
 */
export function updateMessage(state: State, params: Params): Record<string, unknown> {
  const channel = resolveChannel(state, reqStr(params, "channel", "channel_not_found"), false);
  const ts = reqStr(params, "ts", "message_not_found");
  const message = findMessage(state, channel, ts);
  if (!message) throw new ApiError("message_not_found");
  if (message.user !== state.app.botUserId) throw new ApiError("cant_update_message");
  const text = optStr(params, "text");
  const rawBlocks = optJson(params, "blocks", "invalid_blocks_format");
  if (text === undefined && rawBlocks === undefined) throw new ApiError("no_text");
  if (text !== undefined && text.length > MESSAGE_TEXT_MAX_CHARS) throw new ApiError("msg_too_long");
  if (rawBlocks !== undefined) {
    const problems = checkBlocks(rawBlocks, "message");
    if (problems.length > 0) throw validationError("invalid_blocks", problems);
  }
  const next: FakeSlackMessage = {
    ...message,
    text: text ?? message.text,
    blocks: rawBlocks !== undefined ? (rawBlocks as SlackBlock[]) : text !== undefined ? [] : message.blocks,
    edited: { user: state.app.botUserId, ts: nextTs(state) },
    edits: message.edits + 1,
  };
  storeMessage(state, next);
  return { channel, ts, text: next.text, message: messageObject(state, next) };
}

/** An emoji name as `reactions.add` takes it: `white_check_mark`, `+1`, `thumbsup::skin-tone-2`. */
const EMOJI_NAME = /^[a-z0-9_+'-]+(::skin-tone-[2-6])?$/;

/**
 * `reactions.add`: the app's bot user adds the emoji `name` to the message at `channel` + `timestamp`.
 * Without both → `no_item_specified`; a name that is no emoji name → `invalid_name`; the same emoji twice
 * → `already_reacted`.
 */
export function addReaction(state: State, params: Params): Record<string, unknown> {
  const channelId = optStr(params, "channel");
  const ts = optStr(params, "timestamp");
  if (channelId === undefined || ts === undefined) throw new ApiError("no_item_specified");
  const channel = resolveChannel(state, channelId, false);
  const name = reqStr(params, "name", "invalid_name");
  if (!EMOJI_NAME.test(name)) throw new ApiError("invalid_name");
  const message = findMessage(state, channel, ts);
  if (!message) throw new ApiError("message_not_found");
  const reactions = message.reactions ?? [];
  const user = state.app.botUserId;
  const existing = reactions.find((r) => r.name === name);
  if (existing?.users.includes(user)) throw new ApiError("already_reacted");
  if (existing) {
    existing.users.push(user);
    existing.count += 1;
  } else {
    reactions.push({ name, users: [user], count: 1 });
  }
  storeMessage(state, { ...message, reactions });
  return {};
}

/** `chat.postEphemeral`: only `user` sees it. */
export function postEphemeral(state: State, params: Params): Record<string, unknown> {
  const channel = resolveChannel(state, reqStr(params, "channel", "channel_not_found"));
  const user = reqStr(params, "user", "user_not_in_channel");
  if (!USER.test(user)) throw new ApiError("user_not_in_channel");
  const { text, blocks } = content(params);
  const ephemeral: State["ephemerals"][number] = {
    channel,
    user,
    text: text ?? "",
    blocks: blocks ?? [],
    via: "chat.postEphemeral",
    at: state.now(),
  };
  const threadTs = optStr(params, "thread_ts");
  if (threadTs !== undefined) ephemeral.thread_ts = threadTs;
  state.ephemerals.push(ephemeral);
  notify(state);
  return { message_ts: nextTs(state) };
}

/** What the response_url endpoint answers: an HTTP status and a JSON body. */
export interface ResponseUrlAnswer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * A POST to a `response_url`: `replace_original` edits the interaction's message, `delete_original`
 * deletes it, otherwise a new message — ephemeral (the default `response_type`) or `in_channel`.
 */
export function postToResponseUrl(state: State, id: string, body: unknown): ResponseUrlAnswer {
  const entry = state.responseUrls.get(id);
  if (!entry) return { status: 404, body: { ok: false, error: "invalid_url" } };
  if (entry.uses >= RESPONSE_URL_MAX_USES || state.now() - entry.issuedAt > RESPONSE_URL_TTL_MS) {
    return { status: 404, body: { ok: false, error: "expired_url" } };
  }
  if (!isObject(body)) return { status: 400, body: { ok: false, error: "invalid_payload" } };
  entry.uses += 1;
  try {
    const params: Params = { ...body };
    if (optBool(params, "delete_original")) {
      if (entry.messageTs !== undefined) state.messages.get(entry.channel)?.delete(entry.messageTs);
      notify(state);
      return { status: 200, body: { ok: true } };
    }
    const { text, blocks } = content(params);
    if (optBool(params, "replace_original")) {
      const original =
        entry.messageTs === undefined ? undefined : findMessage(state, entry.channel, entry.messageTs);
      if (!original) return { status: 404, body: { ok: false, error: "message_not_found" } };
      storeMessage(state, {
        ...original,
        text: text ?? original.text,
        blocks: blocks ?? [],
        edited: { user: state.app.botUserId, ts: nextTs(state) },
        edits: original.edits + 1,
      });
      return { status: 200, body: { ok: true } };
    }
    if (optStr(params, "response_type") === "in_channel") {
      postMessage(state, { ...params, channel: entry.channel });
      return { status: 200, body: { ok: true } };
    }
    const ephemeral: State["ephemerals"][number] = {
      channel: entry.channel,
      user: entry.user,
      text: text ?? "",
      blocks: blocks ?? [],
      via: "response_url",
      at: state.now(),
    };
    const threadTs = optStr(params, "thread_ts");
    if (threadTs !== undefined) ephemeral.thread_ts = threadTs;
    state.ephemerals.push(ephemeral);
    notify(state);
    return { status: 200, body: { ok: true } };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { status: 400, body: { ok: false, error: error.error, ...error.extra } };
  }
}
