/**
 * Reading a conversation back: `conversations.history` (top-level messages, newest first) and
 * `conversations.replies` (a thread: its parent, then the replies oldest first), with Slack's window
 * (`oldest`, `latest`, `inclusive`), pages (`limit`, `cursor` → `has_more` and
 * `response_metadata.next_cursor`) and message metadata only with `include_all_metadata`.
 */
import { HISTORY_LIMIT_DEFAULT, HISTORY_LIMIT_MAX } from "./limits.ts";
import { messageObject, resolveChannel } from "./messages.ts";
import { ApiError, optBool, optStr, type Params, reqStr } from "./params.ts";
import type { State } from "./state.ts";
import type { FakeSlackMessage } from "./types.ts";

/** A message ts (`1712345678.000042`, or a bare `1712345678`) as a number of microseconds, for ordering. */
function tsKey(ts: string, error: string): bigint {
  const match = /^(\d+)(?:\.(\d{1,6}))?$/.exec(ts);
  if (!match) throw new ApiError(error);
  return BigInt(match[1] ?? "0") * 1_000_000n + BigInt((match[2] ?? "").padEnd(6, "0"));
}

/** The time window of a call: messages after `oldest` and before `latest` (both ends with `inclusive`). */
function windowOf(params: Params): (message: FakeSlackMessage) => boolean {
  const oldestTs = optStr(params, "oldest");
  const latestTs = optStr(params, "latest");
  const oldest = oldestTs === undefined ? undefined : tsKey(oldestTs, "invalid_ts_oldest");
  const latest = latestTs === undefined ? undefined : tsKey(latestTs, "invalid_ts_latest");
  const inclusive = optBool(params, "inclusive") === true;
  return (message) => {
    const at = tsKey(message.ts, "invalid_ts");
    if (oldest !== undefined && (inclusive ? at < oldest : at <= oldest)) return false;
    if (latest !== undefined && (inclusive ? at > latest : at >= latest)) return false;
    return true;
  };
}

/** `limit`: default 100, at most 999 (more is cut to 999, as Slack does); not a positive integer → error. */
function limitOf(params: Params): number {
  const raw = optStr(params, "limit");
  if (raw === undefined) return HISTORY_LIMIT_DEFAULT;
  const limit = Number(raw);
  if (!Number.isInteger(limit) || limit < 1) throw new ApiError("invalid_limit");
  return Math.min(limit, HISTORY_LIMIT_MAX);
}

const cursorOf = (ts: string) => Buffer.from(`next_ts:${ts}`).toString("base64");

/** One page of `ordered` from `cursor` on: the page, and the cursor of the next one when there is more. */
function page(
  ordered: FakeSlackMessage[],
  params: Params,
): { items: FakeSlackMessage[]; next: string | undefined } {
  const cursor = optStr(params, "cursor");
  let start = 0;
  if (cursor !== undefined) {
    const decoded = Buffer.from(cursor, "base64").toString("utf8");
    const ts = decoded.startsWith("next_ts:") ? decoded.slice("next_ts:".length) : undefined;
    start = ordered.findIndex((m) => m.ts === ts);
    if (start < 0) throw new ApiError("invalid_cursor");
  }
  const limit = limitOf(params);
  const items = ordered.slice(start, start + limit);
  const following = ordered[start + limit];
  return { items, next: following === undefined ? undefined : cursorOf(following.ts) };
}

/** A message as the history methods list it: with its `metadata` only when asked for. */
function listed(state: State, message: FakeSlackMessage, params: Params): Record<string, unknown> {
  const out = messageObject(state, message);
  if (message.metadata !== undefined && optBool(params, "include_all_metadata") === true)
    out.metadata = structuredClone(message.metadata);
  return out;
}

function answer(state: State, params: Params, ordered: FakeSlackMessage[]): Record<string, unknown> {
  const { items, next } = page(ordered, params);
  return {
    messages: items.map((message) => listed(state, message, params)),
    has_more: next !== undefined,
    ...(next === undefined ? {} : { response_metadata: { next_cursor: next } }),
  };
}

/**
 * `conversations.history`: the conversation's top-level messages (thread replies stay in their thread),
 * newest first, within the window. Unknown conversation → `channel_not_found`.
 */
export function conversationsHistory(state: State, params: Params): Record<string, unknown> {
  const channel = resolveChannel(state, reqStr(params, "channel", "channel_not_found"), false);
  const inWindow = windowOf(params);
  const ordered = [...(state.messages.get(channel)?.values() ?? [])]
    .filter((m) => (m.thread_ts === undefined || m.thread_ts === m.ts) && inWindow(m))
    .reverse();
  return { ...answer(state, params, ordered), pin_count: 0 };
}

/**
 * `conversations.replies`: the thread of `ts` — its parent first, then the replies within the window,
 * oldest first. A `ts` that is no message → `thread_not_found`.
 */
export function conversationsReplies(state: State, params: Params): Record<string, unknown> {
  const channel = resolveChannel(state, reqStr(params, "channel", "channel_not_found"), false);
  const ts = reqStr(params, "ts", "thread_not_found");
  const messages = [...(state.messages.get(channel)?.values() ?? [])];
  const parent = messages.find((m) => m.ts === ts);
  if (!parent) throw new ApiError("thread_not_found");
  const root = parent.thread_ts ?? parent.ts;
  const inWindow = windowOf(params);
  const thread = messages.filter((m) => m.ts === root || (m.thread_ts === root && inWindow(m)));
  thread.sort((a, b) => (tsKey(a.ts, "invalid_ts") < tsKey(b.ts, "invalid_ts") ? -1 : 1));
  return answer(state, params, thread);
}
