/**
 * Slack requests → core calls, as one Bolt global middleware: our taps (`taps.ts`), our modal's
 * submissions (`other-modal.ts`) and messages that answer a question (here); the rest goes on with `next()`.
 */
import { describeError, type ReplyEvent } from "@ask-user/core/channel";
import type {
  AllMiddlewareArgs,
  AnyMiddlewareArgs,
  BlockAction,
  EnvelopedEvent,
  Middleware,
  SlackActionMiddlewareArgs,
  SlackEventMiddlewareArgs,
  SlackViewMiddlewareArgs,
  types,
  ViewSubmitAction,
} from "@slack/bolt";
import { conversationOf, formatMessageRef, threadOf } from "./conversation.ts";
import type { InboundDeps } from "./inbound-context.ts";
import { eventKey } from "./ingress/dedupe.ts";
import { onSubmission, ourSubmission } from "./other-modal.ts";
import { replyText } from "./reply-text.ts";
import { onTap, ourTap } from "./taps.ts";

/** Handles a message a person wrote; true when it was an answer to something (then it is not passed on). */
async function onMessage(deps: InboundDeps, event: types.MessageEvent, botUserId?: string): Promise<boolean> {
  // Plain, broadcast from a thread, or with files; not edits, joins or bots' messages.
  if (event.subtype !== undefined && event.subtype !== "thread_broadcast" && event.subtype !== "file_share")
    return false;
  if ("bot_id" in event && event.bot_id !== undefined) return false;
  const { user: userId, channel: channelId, ts, text } = event as types.GenericMessageEvent;
  if (!userId || !channelId || !ts || typeof text !== "string") return false;
  const threadTs = threadOf(event as types.GenericMessageEvent);
  const who = await deps.people.lookup(userId);
  const common = { channel: deps.name, userId, text: replyText(text, botUserId), ...who };
  const answers = async (reply: ReplyEvent) => (await deps.broker.handleReply(reply)).kind !== "ignored";
  const base = conversationOf(channelId, userId);
  // Notices react to the person's message or answer in its thread (in a DM: below it; see notices.ts).
  if (threadTs === undefined) return answers({ ...common, conversation: base, messageId: ts });
  // A question posted into this thread (target `C…:<thread_ts>`) first, then the thread's parent.
  const reply = { ...common, replyTo: threadTs, messageId: formatMessageRef({ ts, threadTs }) };
  return (
    (await answers({ ...reply, conversation: conversationOf(channelId, userId, threadTs) })) ||
    answers({ ...reply, conversation: base })
  );
}

/**
 * Runs a handler with an `ack` that acknowledges at most once; a crash is logged once and never reaches
 * Bolt (our request is acknowledged anyway, unless the handler did).
 */
async function guarded<T, R>(
  deps: InboundDeps,
  type: string,
  rawAck: ((response?: R) => Promise<void>) | undefined,
  work: (ack: (response?: R) => Promise<void>) => Promise<T>,
) {
  let acked = false;
  const ack = async (response?: R) => {
    if (acked || !rawAck) return;
    acked = true;
    await rawAck(response);
  };
  try {
    return await work(ack);
  } catch (error) {
    await ack().catch(() => undefined);
    deps.logger.error({ channel: deps.name, type, err: describeError(error) }, "slack inbound failed");
    return undefined;
  }
}

/**
 * Handles a request if it is ours; true when it was (then it does not go on to the host's listeners).
 * Bolt types middleware arguments as a union it does not discriminate: read `body.type`, as Bolt does.
 */
async function handle(deps: InboundDeps, args: AnyMiddlewareArgs & AllMiddlewareArgs): Promise<boolean> {
  const type = (args.body as { type?: unknown }).type;
  if (type === "block_actions") {
    const tap = args as unknown as SlackActionMiddlewareArgs<BlockAction>;
    const data = ourTap(tap.body);
    if (data === undefined) return false;
    await guarded(deps, type, tap.ack, (ack) => onTap(deps, tap, data, ack));
    return true;
  }
  if (type === "view_submission") {
    const { body, ack } = args as SlackViewMiddlewareArgs<ViewSubmitAction>;
    const data = ourSubmission(body);
    if (data === undefined) return false;
    await guarded(deps, type, ack, (once) => onSubmission(deps, body, data, once));
    return true;
  }
  const message = args as unknown as SlackEventMiddlewareArgs<"message">;
  if (type !== "event_callback" || message.event.type !== "message") return false;
  // The bot's own user id: Bolt's context (from `auth.test`), else the event's authorization.
  const authorization = (message.body as EnvelopedEvent).authorizations?.[0];
  const botUserId = args.context.botUserId ?? (authorization?.is_bot ? authorization.user_id : undefined);
  return (
    (await guarded(deps, "message", undefined, () => onMessage(deps, message.event, botUserId))) ?? false
  );
}

/** The middleware. A redelivered event is handled once, for the host's listeners too: Bolt acked it already. */
export function createInbound(deps: InboundDeps): Middleware<AnyMiddlewareArgs> {
  return async (args) => {
    const body = args.body as EnvelopedEvent & { type?: unknown };
    const key = body.type === "event_callback" ? eventKey(body) : undefined;
    if (key !== undefined && !(await deps.once.take(key))) return;
    if (!(await handle(deps, args))) await args.next();
  };
}
