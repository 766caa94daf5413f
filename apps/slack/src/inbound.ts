/**
 * Slack requests → core calls: button taps (`block_actions`), Other… modal submissions
 * (`view_submission`) and text messages (`message` events). The only reader of raw Slack payloads.
 * Mounted as Bolt global middleware: requests that are not ours go on to the host app's listeners.
 */
import type {
  ActionEvent,
  AskUserBroker,
  AskUserLogger,
  Coordination,
  InboundOutcome,
  ReplyEvent,
} from "@ask-user/core";
import { decodeAction } from "@ask-user/core";
import type { AnyMiddlewareArgs, Middleware, webApi } from "@slack/bolt";
import { eventKey, firstTime, interactionKey } from "./dedupe.ts";
import { ACK_BUDGET_MS, SUBMISSION_LOOKUP_BUDGET_MS } from "./limits.ts";
import { ANSWER_ACTION_ID, ANSWER_BLOCK_ID, renderOtherModal, renderPrivateNotice } from "./render.ts";
import { replyText } from "./reply-text.ts";
import { parseAddress, threadConversation, threadOf } from "./target.ts";
import type { People } from "./users.ts";

/** What the inbound side needs. */
export interface InboundDeps {
  /** The channel name in targets (`slack`). */
  name: string;
  broker: () => AskUserBroker;
  client: webApi.WebClient;
  people: People;
  logger: AskUserLogger;
  /** Where "handled once" is recorded: the store shared by every instance, or this process alone. */
  coordination: Coordination;
}

type Json = Record<string, unknown>;
type Ack = (response?: Json) => Promise<void>;
type Respond = (message: Json) => Promise<unknown>;

const obj = (value: unknown): Json => (typeof value === "object" && value !== null ? (value as Json) : {});
const str = (value: unknown): string | undefined =>
  typeof value === "string" && value !== "" ? value : undefined;

/** Message subtypes that are a person writing; everything else (edits, joins, bots) is not an answer. */
const PERSON_SUBTYPES = new Set([undefined, "thread_broadcast", "file_share"]);

/** The conversation name of an event: DMs by the user's id, threads as `<conversation>:<thread_ts>`. */
function conversationOf(channelId: string, userId: string, threadTs?: string): string {
  const base = channelId.startsWith("D") ? userId : channelId;
  return threadTs === undefined ? base : threadConversation(base, threadTs);
}

/** Resolves with the value, or `undefined` once `ms` passed (the work goes on). */
function within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

async function person(deps: InboundDeps, userId: string, username: unknown, budgetMs?: number) {
  const found = await deps.people.lookup(userId, budgetMs);
  const out: { displayName?: string; locale?: string } = {};
  const displayName = found.displayName ?? (str(username) ? `@${str(username)}` : undefined);
  if (displayName !== undefined) out.displayName = displayName;
  if (found.locale !== undefined) out.locale = found.locale;
  return out;
}

/** Shows `text` to one user only: through the interaction's `response_url`, else `chat.postEphemeral`. */
async function tellPrivately(
  deps: InboundDeps,
  where: { channel: string; user: string; threadTs?: string },
  text: string,
  respond?: Respond,
): Promise<void> {
  const body = renderPrivateNotice(text);
  if (respond) {
    await respond({ response_type: "ephemeral", replace_original: false, text: body.text });
    return;
  }
  await deps.client.chat.postEphemeral({
    channel: where.channel,
    user: where.user,
    text: body.text,
    ...(where.threadTs === undefined ? {} : { thread_ts: where.threadTs }),
  });
}

/** A tap on one of our buttons: ack at once, then the broker; Other… opens the modal. */
async function onAction(deps: InboundDeps, body: Json, ack: Ack, respond?: Respond): Promise<boolean> {
  const action = obj(Array.isArray(body.actions) ? body.actions[0] : undefined);
  const data = str(action.action_id);
  const decoded = decodeAction(data);
  if (!decoded || data === undefined) return false;
  await ack();
  const user = obj(body.user);
  const userId = str(user.id);
  const container = obj(body.container);
  const channelId = str(obj(body.channel).id) ?? str(container.channel_id);
  if (!userId || !channelId) return true;
  const message = obj(body.message);
  const threadTs = threadOf(
    str(message.ts) ? message : { ts: container.message_ts, thread_ts: container.thread_ts },
  );
  const conversation = conversationOf(channelId, userId, threadTs);
  const who = await person(deps, userId, user.username);
  const event: ActionEvent = { channel: deps.name, conversation, userId, data, ...who };
  // Other… opens a modal: the broker only checks the tap and stores nothing, so a dismissed modal
  // leaves nothing behind (a later reply is read by the normal rules).
  const modal = decoded.action.kind === "other";
  const outcome = await deps.broker().handleAction(modal ? { ...event, opensModal: true } : event);
  const where = { channel: channelId, user: userId, ...(threadTs === undefined ? {} : { threadTs }) };
  if (outcome.kind === "awaiting_text") {
    const index = outcome.record.tokens.indexOf(decoded.token);
    const locale = who.locale ?? outcome.record.locale;
    try {
      await deps.client.views.open({
        trigger_id: str(body.trigger_id) ?? "",
        view: renderOtherModal(outcome.record, index, conversation, locale),
      });
    } catch (error) {
      // No modal (trigger expired, Slack said no): the tapper's next message is the answer instead.
      deps.logger.warn({ channel: deps.name, err: describe(error) }, "could not open the Other… modal");
      const instead = await deps.broker().handleAction(event);
      await tellPrivately(deps, where, instead.kind === "ignored" ? outcome.text : instead.text, respond);
    }
    return true;
  }
  // Answers and skips show in the message itself (the broker's finalize edits it to the summary).
  if (outcome.kind !== "answered" && outcome.kind !== "skipped" && outcome.kind !== "ignored") {
    await tellPrivately(deps, where, outcome.text, respond);
  }
  return true;
}

function isRefusal(
  outcome: InboundOutcome,
): outcome is Exclude<InboundOutcome, { kind: "ignored" | "answered" | "skipped" }> {
  return outcome.kind !== "ignored" && outcome.kind !== "answered" && outcome.kind !== "skipped";
}

/** A submission of our Other… modal: answered → close it; refused or empty → a field error in it. */
async function onViewSubmission(deps: InboundDeps, body: Json, ack: Ack): Promise<boolean> {
  const view = obj(body.view);
  const data = str(view.callback_id);
  const decoded = decodeAction(data);
  if (!decoded || data === undefined || decoded.action.kind !== "other") return false;
  const userId = str(obj(body.user).id);
  let conversation: string | undefined;
  try {
    conversation = str(obj(JSON.parse(String(view.private_metadata ?? ""))).c);
  } catch {
    conversation = undefined;
  }
  if (!userId || !conversation) {
    await ack();
    return true;
  }
  const values = obj(obj(obj(view.state).values)[ANSWER_BLOCK_ID]);
  const text =
    typeof obj(values[ANSWER_ACTION_ID]).value === "string"
      ? String(obj(values[ANSWER_ACTION_ID]).value)
      : "";
  // Usually cached since the Other… tap; keep the ack budget for the broker.
  const who = await person(deps, userId, obj(body.user).username, SUBMISSION_LOOKUP_BUDGET_MS);
  const event: ActionEvent = { channel: deps.name, conversation, userId, data, text, ...who };
  const pending = deps.broker().handleAction(event);
  const outcome = await within(pending, ACK_BUDGET_MS);
  if (outcome && isRefusal(outcome)) {
    await ack({ response_action: "errors", errors: { [ANSWER_BLOCK_ID]: outcome.text.slice(0, 2000) } });
    return true;
  }
  await ack();
  if (outcome === undefined) {
    // Slow store: the modal closed; a refusal arriving late goes to the person privately.
    const late = await pending;
    if (isRefusal(late)) {
      const address = parseAddress(conversation);
      const channel = address.user ? await deps.people.dm(address.base) : address.base;
      await tellPrivately(
        deps,
        { channel, user: userId, ...(address.threadTs ? { threadTs: address.threadTs } : {}) },
        late.text,
      );
    }
  }
  return true;
}

/**
 * A person's message: a reply in a question's thread goes to it; otherwise core's routing rules. The
 * text goes to core as typed (`replyText`: Slack's markup undone, a mention of the bot removed).
 */
async function onMessage(deps: InboundDeps, event: Json, botUserId?: string): Promise<boolean> {
  const userId = str(event.user);
  const channelId = str(event.channel);
  const ts = str(event.ts);
  if (event.bot_id !== undefined || !PERSON_SUBTYPES.has(str(event.subtype))) return false;
  if (!userId || !channelId || !ts || typeof event.text !== "string") return false;
  const im = event.channel_type === "im" || channelId.startsWith("D");
  const base = conversationOf(channelId, userId);
  const threadTs = threadOf(event);
  const who = await person(deps, userId, undefined);
  const common = { channel: deps.name, userId, text: replyText(event.text, botUserId), ...who };
  const broker = deps.broker();
  if (threadTs !== undefined) {
    // A question posted into this thread (target `C…:<thread_ts>`) first, then the thread's parent.
    const reply: ReplyEvent = {
      ...common,
      conversation: threadConversation(base, threadTs),
      replyTo: threadTs,
      messageId: threadTs,
    };
    if ((await broker.handleReply(reply)).kind !== "ignored") return true;
    return (await broker.handleReply({ ...reply, conversation: base })).kind !== "ignored";
  }
  // In a channel, confirmations go into the thread of the person's message; in a DM, below it.
  const reply: ReplyEvent = { ...common, conversation: base, ...(im ? {} : { messageId: ts }) };
  return (await broker.handleReply(reply)).kind !== "ignored";
}

/** The bot's own user id: Bolt's context (from `auth.test`), else the event's authorization. */
function botUserOf(context: unknown, body: Json): string | undefined {
  const authorization = obj(Array.isArray(body.authorizations) ? body.authorizations[0] : undefined);
  return (
    str(obj(context).botUserId) ?? (authorization.is_bot === true ? str(authorization.user_id) : undefined)
  );
}

/** True for a tap on our buttons or a submission of our modal (before looking any further). */
function claims(body: Json): boolean {
  if (body.type === "block_actions") {
    const action = obj(Array.isArray(body.actions) ? body.actions[0] : undefined);
    return decodeAction(action.action_id) !== undefined;
  }
  if (body.type === "view_submission")
    return decodeAction(obj(body.view).callback_id)?.action.kind === "other";
  return false;
}

/**
 * The Bolt global middleware: handles our taps, modal submissions and answering messages, and calls
 * `next()` for everything else, so the host app's own listeners keep working. Each event and each of
 * our interactions is handled once across instances (see `dedupe.ts`); a second delivery is acked and
 * dropped. A crash is logged once and never reaches Bolt (our requests are acknowledged anyway).
 */
export function createInbound(deps: InboundDeps): Middleware<AnyMiddlewareArgs> {
  const once = (key: string) => firstTime(deps.coordination, key, deps.logger, deps.name);
  return async (args) => {
    const body = obj(args.body);
    // Slack redelivers an event it thinks was lost, maybe to another instance; Bolt has acked it
    // already. Handled once (for the host's listeners too).
    const event = eventKey(body);
    if (event !== undefined && !(await once(event))) return;
    let acked = false;
    const rawAck = "ack" in args && typeof args.ack === "function" ? (args.ack as Ack) : undefined;
    const ack: Ack = async (response) => {
      if (acked || !rawAck) return;
      acked = true;
      await rawAck(response);
    };
    const respond =
      "respond" in args && typeof args.respond === "function" ? (args.respond as Respond) : undefined;
    let ours = claims(body);
    try {
      const interaction = ours ? interactionKey(body) : undefined;
      if (interaction !== undefined) {
        if (body.type === "block_actions") await ack(); // taps are acked before any work
        if (!(await once(interaction))) {
          await ack(); // a copy of one another instance (or this one) handled: acked, nothing else
          return;
        }
      }
      if (body.type === "block_actions") ours = await onAction(deps, body, ack, respond);
      else if (body.type === "view_submission") ours = await onViewSubmission(deps, body, ack);
      else if (body.type === "event_callback" && obj(body.event).type === "message") {
        ours = await onMessage(deps, obj(body.event), botUserOf(args.context, body));
      }
    } catch (error) {
      if (ours) await ack().catch(() => undefined);
      deps.logger.error(
        { channel: deps.name, type: String(body.type), err: describe(error) },
        "slack inbound failed",
      );
    }
    if (!ours) await args.next();
  };
}
