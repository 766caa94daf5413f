/**
 * Slack requests → core calls, as one Bolt global middleware: our button taps (`taps.ts`), our Other…
 * modal's submissions (`other-modal.ts`) and people's messages that answer a question (here: a reply in
 * a question's thread goes to it, otherwise core's routing rules; the text as typed, `reply-text.ts`).
 * Requests that are not ours go on with `next()` to the host app's listeners. Bolt acknowledges events
 * itself before any middleware runs.
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
  ViewResponseAction,
  ViewSubmitAction,
} from "@slack/bolt";
import { formatMessageRef, threadOf } from "./conversation.ts";
import { conversationOf, type InboundDeps, person } from "./inbound-context.ts";
import { eventKey } from "./ingress/dedupe.ts";
import { onSubmission, ourSubmission } from "./other-modal.ts";
import { replyText } from "./reply-text.ts";
import { onTap, ourTap } from "./taps.ts";

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

/**
 * Bolt's request types by `body.type` (Bolt types middleware arguments as a union it does not
 * discriminate; its own built-in middleware reads `body.type` the same way).
 */
interface Requests {
  block_actions: SlackActionMiddlewareArgs<BlockAction>;
  view_submission: SlackViewMiddlewareArgs<ViewSubmitAction>;
  event_callback: SlackEventMiddlewareArgs;
}

function requestOf(args: AnyMiddlewareArgs): Partial<Requests> {
  const type = (args.body as { type?: unknown }).type;
  if (type === "block_actions" || type === "view_submission" || type === "event_callback") {
    return { [type]: args } as Partial<Requests>;
  }
  return {};
}

/** `ack` that acknowledges at most once (a handler's ack, then the safety ack after a crash). */
function ackOnce<R>(ack: (response?: R) => Promise<void>): (response?: R) => Promise<void> {
  let acked = false;
  return async (response) => {
    if (acked) return;
    acked = true;
    await ack(response);
  };
}

/** Handles a request if it is ours; true when it was (then it does not go on to the host's listeners). */
async function handle(deps: InboundDeps, args: AnyMiddlewareArgs & AllMiddlewareArgs): Promise<boolean> {
  const { block_actions: tap, view_submission: submission, event_callback: event } = requestOf(args);
  if (tap) {
    const data = ourTap(tap.body);
    if (data === undefined) return false;
    const ack = ackOnce<void>(tap.ack);
    await guarded(deps, "block_actions", ack, () => onTap(deps, tap, data, ack));
    return true;
  }
  if (submission) {
    const data = ourSubmission(submission.body);
    if (data === undefined) return false;
    const ack = ackOnce<ViewResponseAction>(submission.ack);
    await guarded(deps, "view_submission", ack, () => onSubmission(deps, submission.body, data, ack));
    return true;
  }
  if (event?.event.type === "message") {
    const message = event as SlackEventMiddlewareArgs<"message">;
    const botUserId = botUserOf(message.body, args.context.botUserId);
    let answered = false;
    await guarded(deps, "message", undefined, async () => {
      answered = await onMessage(deps, message.event, botUserId);
    });
    return answered;
  }
  return false;
}

/** Runs a handler; a crash is logged once and never reaches Bolt (our request is acknowledged anyway). */
async function guarded(
  deps: InboundDeps,
  type: string,
  ack: (() => Promise<void>) | undefined,
  work: () => Promise<void>,
): Promise<void> {
  try {
    await work();
  } catch (error) {
    await ack?.().catch(() => undefined);
    deps.logger.error({ channel: deps.name, type, err: describeError(error) }, "slack inbound failed");
  }
}

/**
 * The Bolt global middleware: handles our taps, modal submissions and answering messages, and calls
 * `next()` for everything else, so the host app's own listeners keep working. An event Slack redelivers
 * (maybe to another instance) is handled once, for the host's listeners too: Bolt has acked it already.
 */
export function createInbound(deps: InboundDeps): Middleware<AnyMiddlewareArgs> {
  return async (args) => {
    const event = requestOf(args).event_callback;
    const key = event ? eventKey(event.body) : undefined;
    if (key !== undefined && !(await deps.once(key))) return;
    if (!(await handle(deps, args))) await args.next();
  };
}
