/**
 * Slack requests → core calls, as one Bolt global middleware: our button taps (`actions.ts`), our
 * Other… modal's submissions (`views.ts`) and messages that answer a question (`messages.ts`). Requests
 * that are not ours go on with `next()` to the host app's listeners.
 */
import { describeError } from "@ask-user/core";
import type {
  AllMiddlewareArgs,
  AnyMiddlewareArgs,
  BlockAction,
  Middleware,
  SlackActionMiddlewareArgs,
  SlackEventMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewResponseAction,
  ViewSubmitAction,
} from "@slack/bolt";
import { onTap, ourTap } from "./actions.ts";
import { eventKey } from "./dedupe.ts";
import type { InboundDeps } from "./inbound-context.ts";
import { botUserOf, onMessage } from "./messages.ts";
import { onSubmission, ourSubmission } from "./views.ts";

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
