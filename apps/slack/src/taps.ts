/**
 * Taps on our controls (`block_actions`): buttons, and a form's radio buttons and checkboxes.
 * Acknowledged at once, before any work, so Slack never shows the person an error however slow the
 * store is; the outcome follows — an answer or Skip in the message itself (the broker's finalize edits
 * it), a form's new selection too (the broker's refresh re-renders it), a refusal or "Still needed: …"
 * as an ephemeral message through the tap's `response_url`, and Other… as a modal.
 */
import { type ActionEvent, decodeAction, describeError } from "@ask-user/core/channel";
import type { BlockAction, BlockElementAction, SlackActionMiddlewareArgs } from "@slack/bolt";
import { threadOf } from "./conversation.ts";
import {
  conversationOf,
  type InboundDeps,
  type PrivateAddress,
  person,
  tellPrivately,
} from "./inbound-context.ts";
import { tapKey } from "./ingress/dedupe.ts";
import { renderOtherModal } from "./other-modal.ts";

/** The `container` of a tap on a message's button (Bolt types it as any string-indexed object). */
interface MessageContainer {
  channel_id?: string;
  message_ts?: string;
  thread_ts?: string;
}

/** The action data of a tap when it is one of our controls (core's action codec), else `undefined`. */
export function ourTap(body: BlockAction): string | undefined {
  const data = body.actions[0]?.action_id;
  return decodeAction(data) === undefined ? undefined : data;
}

/**
 * The option indices a radio button or checkbox group now has selected (their `value`s), for a `choose`
 * control; `undefined` for a button.
 */
export function chosenValues(action: BlockElementAction | undefined): number[] | undefined {
  if (action?.type === "radio_buttons") {
    return action.selected_option ? [Number(action.selected_option.value)] : [];
  }
  if (action?.type === "checkboxes") return action.selected_options.map((option) => Number(option.value));
  return undefined;
}

/**
 * The selections of our choice groups as the tapper's client shows them (`state.values`, sent with every
 * tap): the `choose` data of each group that has something selected, with the option indices. An empty
 * group is left out: it cannot tell "cleared" from "never touched", and a radio button group cannot be
 * cleared at all.
 */
export function shownSelections(body: BlockAction): Array<[string, number[]]> {
  const out: Array<[string, number[]]> = [];
  for (const block of Object.values(body.state?.values ?? {})) {
    for (const [actionId, state] of Object.entries(block)) {
      if (decodeAction(actionId)?.action.kind !== "choose") continue;
      const options = state.selected_options ?? (state.selected_option ? [state.selected_option] : []);
      if (options.length > 0) out.push([actionId, options.map((option) => Number(option.value))]);
    }
  }
  return out;
}

/**
 * Handles a tap on one of our buttons (`data` from {@link ourTap}). The tap is acknowledged first; a
 * copy of a tap another instance handled is then dropped.
 */
export async function onTap(
  deps: InboundDeps,
  args: SlackActionMiddlewareArgs<BlockAction>,
  data: string,
  ack: () => Promise<void>,
): Promise<void> {
  await ack();
  const { body, respond } = args;
  const key = tapKey(body);
  if (key !== undefined && !(await deps.once(key))) return;
  const decoded = decodeAction(data);
  const container = body.container as MessageContainer;
  const userId = body.user.id;
  const channelId = body.channel?.id ?? container.channel_id;
  if (!decoded || !userId || !channelId) return;
  const threadTs = threadOf(
    body.message ? body.message : { ts: container.message_ts, thread_ts: container.thread_ts },
  );
  const conversation = conversationOf(channelId, userId, threadTs);
  const who = await person(deps, userId);
  const values = chosenValues(body.actions[0]);
  const event: ActionEvent = {
    channel: deps.name,
    conversation,
    userId,
    data,
    ...who,
    ...(values === undefined ? {} : { values }),
  };
  // Other… opens a modal: the broker only checks the tap and stores nothing, so a dismissed modal
  // leaves nothing behind (a later reply is read by the normal rules).
  if (decoded.action.kind === "submit") {
    // What the person sees is what they send: a choice whose own tap is still on its way (here or on
    // another instance) is staged first, from the selections their client reports with the Send.
    for (const [data, values] of shownSelections(body))
      await deps.broker.handleAction({ ...event, data, values });
  }
  const modal = decoded.action.kind === "other";
  const outcome = await deps.broker.handleAction(modal ? { ...event, opensModal: true } : event);
  const where: PrivateAddress = { channel: channelId, user: userId, ...(threadTs ? { threadTs } : {}) };
  if (outcome.kind === "awaiting_text") {
    const index = outcome.record.tokens.indexOf(decoded.token);
    const locale = who.locale ?? outcome.record.locale;
    try {
      await deps.client.views.open({
        trigger_id: body.trigger_id,
        view: renderOtherModal(outcome.record, index, conversation, locale),
      });
    } catch (error) {
      // No modal (trigger expired, Slack said no): the tapper's next message is the answer instead.
      deps.logger.warn({ channel: deps.name, err: describeError(error) }, "could not open the Other… modal");
      const instead = await deps.broker.handleAction(event);
      await tellPrivately(deps, where, instead.kind === "ignored" ? outcome.text : instead.text, respond);
    }
    return;
  }
  // Answers and skips show in the message itself (the broker's finalize edits it to the summary), a
  // form's new selection too (the person's client shows it at once; the broker's refresh re-renders it).
  const shown = ["answered", "skipped", "staged"];
  if (outcome.kind !== "ignored" && !shown.includes(outcome.kind)) {
    await tellPrivately(deps, where, outcome.text, respond);
  }
}
