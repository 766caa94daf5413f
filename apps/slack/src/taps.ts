/**
 * Taps on our controls (`block_actions`): buttons, radio buttons, checkboxes. Acknowledged before any
 * work, so a slow store never shows the person an error; a refusal follows through the `response_url`.
 */
import { type ActionEvent, decodeAction, describeError } from "@ask-user/core/channel";
import type { BlockAction, BlockElementAction, SlackActionMiddlewareArgs } from "@slack/bolt";
import { conversationOf, threadOf } from "./conversation.ts";
import { type InboundDeps, isRefusal } from "./inbound-context.ts";
import { tapKey } from "./ingress/dedupe.ts";
import { tellPrivately } from "./notices.ts";
import { renderOtherModal } from "./other-modal.ts";

/** The action data of a tap when it is one of our controls (core's action codec), else `undefined`. */
export function ourTap(body: BlockAction): string | undefined {
  const data = body.actions[0]?.action_id;
  return decodeAction(data) === undefined ? undefined : data;
}

/** The option indices a radio button or checkbox group now has selected; `undefined` for a button. */
function chosenValues(action: BlockElementAction | undefined): number[] | undefined {
  if (action?.type === "radio_buttons")
    return action.selected_option ? [Number(action.selected_option.value)] : [];
  if (action?.type === "checkboxes") return action.selected_options.map((option) => Number(option.value));
  return undefined;
}

/**
 * The selections the tapper's client shows (`state.values`). An empty group is left out: it cannot tell
 * "cleared" from "never touched", and a radio button group cannot be cleared at all.
 */
function shownSelections(body: BlockAction): Array<[string, number[]]> {
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

/** Handles a tap on one of our controls (`data` from {@link ourTap}); a copy another instance handled is dropped. */
export async function onTap(
  deps: InboundDeps,
  args: SlackActionMiddlewareArgs<BlockAction>,
  data: string,
  ack: () => Promise<void>,
): Promise<void> {
  await ack();
  const { body, respond } = args;
  const key = tapKey(body);
  if (key !== undefined && !(await deps.once.take(key))) return;
  const decoded = decodeAction(data);
  // Bolt types a message button's `container` as any string-indexed object.
  const container = body.container as { channel_id?: string; message_ts?: string; thread_ts?: string };
  const userId = body.user.id;
  const channelId = body.channel?.id ?? container.channel_id;
  if (!decoded || !userId || !channelId) return;
  const threadTs = threadOf(body.message ?? { ts: container.message_ts, thread_ts: container.thread_ts });
  const conversation = conversationOf(channelId, userId, threadTs);
  const who = await deps.people.lookup(userId);
  const values = chosenValues(body.actions[0]);
  const event: ActionEvent = { channel: deps.name, conversation, userId, data, ...who };
  if (values !== undefined) event.values = values;
  if (decoded.action.kind === "submit") {
    // What the person sees is what they send: a choice whose own tap is still on its way (here or on
    // another instance) is staged first, from the selections their client reports with the Send.
    for (const [data, values] of shownSelections(body))
      await deps.broker.handleAction({ ...event, data, values });
  }
  // Other… opens a modal: the broker only checks the tap and stores nothing, so a dismissed modal
  // leaves nothing behind (a later reply is read by the normal rules).
  const modal = decoded.action.kind === "other";
  const outcome = await deps.broker.handleAction(modal ? { ...event, opensModal: true } : event);
  const where = { channel: channelId, user: userId, threadTs };
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
  // Answers and skips show in the message itself (finalize edits it), a form's new selection too.
  if (isRefusal(outcome)) await tellPrivately(deps, where, outcome.text, respond);
}
