/**
 * People's messages (`message` events): a reply in a question's thread goes to it; otherwise core's
 * routing rules. The text goes to core as typed (`replyText`: Slack's markup undone, a mention of the
 * bot removed). Bolt acknowledges events itself before any middleware runs.
 */
import type { ReplyEvent } from "@ask-user/core";
import type { EnvelopedEvent, types } from "@slack/bolt";
import { formatMessageRef, threadOf } from "./conversation.ts";
import { conversationOf, type InboundDeps, person } from "./inbound-context.ts";
import { replyText } from "./reply-text.ts";

/** A message a person wrote: plain, broadcast from a thread, or with files. Edits, joins, bots are not. */
type PersonMessage =
  | types.GenericMessageEvent
  | types.ThreadBroadcastMessageEvent
  | types.FileShareMessageEvent;

function byPerson(event: types.MessageEvent): event is PersonMessage {
  const { subtype } = event;
  if (subtype !== undefined && subtype !== "thread_broadcast" && subtype !== "file_share") return false;
  return !("bot_id" in event && event.bot_id !== undefined);
}

/** The bot's own user id: Bolt's context (from `auth.test`), else the event's authorization. */
export function botUserOf(body: EnvelopedEvent, contextBotUserId: string | undefined): string | undefined {
  const authorization = body.authorizations?.[0];
  return contextBotUserId ?? (authorization?.is_bot ? authorization.user_id : undefined);
}

/** Handles a message; true when it was an answer to something (then it is not passed on). */
export async function onMessage(
  deps: InboundDeps,
  event: types.MessageEvent,
  botUserId: string | undefined,
): Promise<boolean> {
  if (!byPerson(event)) return false;
  const { user: userId, channel: channelId, ts, text } = event;
  if (!userId || !channelId || !ts || typeof text !== "string") return false;
  const base = conversationOf(channelId, userId);
  const threadTs = threadOf(event);
  const who = await person(deps, userId);
  const common = { channel: deps.name, userId, text: replyText(text, botUserId), ...who };
  const { broker } = deps;
  if (threadTs !== undefined) {
    // A question posted into this thread (target `C…:<thread_ts>`) first, then the thread's parent.
    const reply: ReplyEvent = {
      ...common,
      conversation: conversationOf(channelId, userId, threadTs),
      replyTo: threadTs,
      messageId: formatMessageRef({ ts, threadTs }),
    };
    if ((await broker.handleReply(reply)).kind !== "ignored") return true;
    return (await broker.handleReply({ ...reply, conversation: base })).kind !== "ignored";
  }
  // Notices react to the person's message or answer in its thread (in a DM: below it; see notices.ts).
  const reply: ReplyEvent = { ...common, conversation: base, messageId: ts };
  return (await broker.handleReply(reply)).kind !== "ignored";
}
