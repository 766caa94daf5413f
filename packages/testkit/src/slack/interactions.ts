/**
 * A person operating a message's controls, as Slack's client reports it (`block_actions`): a click on a
 * button, or a change of a radio button or checkbox group — with the group's whole selection as the
 * person's client shows it, and the state of every group of the message.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { buttons, buttonText, type Control, choiceGroups, initialSelection, optionsOf } from "./controls.ts";
import { messageObject } from "./messages.ts";
import { channelType, findMessage, type State } from "./state.ts";
import { deliver } from "./transport.ts";
import type { FakeSlackMessage, Interaction, SlackUserInit } from "./types.ts";

/** Options of {@link FakeSlackUser.click}. */
export interface ClickOptions {
  /**
   * Click even if the message has no such button (a stale message on the user's screen). By default a
   * click on a button that is not there throws: no user could do it.
   */
  stale?: boolean;
}

/** Options of {@link FakeSlackUser.choose}. */
export interface ChooseOptions {
  /** The group's `action_id`, when several groups of the message have an option with that text. */
  actionId?: string;
}

/** What a person does with a message's controls. */
export interface Interactions {
  click(channel: string, ts: string, actionId: string, options?: ClickOptions): Promise<Interaction>;
  choose(channel: string, ts: string, optionText: string, options?: ChooseOptions): Promise<Interaction>;
}

/** Creates the interactions of one person (`info`) in `state`. */
export function createInteractions(state: State, info: SlackUserInit): Interactions {
  const userObject = { id: info.id, username: info.name, name: info.name, team_id: state.team.id };

  const messageOf = (channel: string, ts: string): FakeSlackMessage => {
    const message = findMessage(state, channel, ts);
    if (!message) throw new Error(`fake Slack: no message ${ts} in ${channel}`);
    return message;
  };
  const selectionKey = (channel: string, ts: string, control: Control) =>
    `${info.id} ${channel} ${ts} ${control.block_id} ${String(control.element.action_id ?? "")}`;
  const selectionOf = (channel: string, ts: string, control: Control) =>
    state.selections.get(selectionKey(channel, ts, control)) ?? initialSelection(control.element);

  /** The `state.values` of the message as this person's client has it: every choice group. */
  const stateValues = (channel: string, message: FakeSlackMessage) => {
    const values: Record<string, Record<string, unknown>> = {};
    for (const group of choiceGroups(message)) {
      const selected = selectionOf(channel, message.ts, group);
      const value =
        group.element.type === "radio_buttons"
          ? { type: "radio_buttons", selected_option: selected[0] ?? null }
          : { type: "checkboxes", selected_options: selected };
      values[group.block_id] = { ...values[group.block_id], [String(group.element.action_id ?? "")]: value };
    }
    return values;
  };

  const send = async (channel: string, message: FakeSlackMessage, action: Record<string, unknown>) => {
    const triggerId = `${Date.now()}.${state.seq + 1}.${randomBytes(16).toString("hex")}`;
    state.triggers.set(triggerId, { user: info.id, issuedAt: state.now(), exchanged: false });
    const responseId = randomUUID();
    state.responseUrls.set(responseId, {
      channel,
      user: info.id,
      messageTs: message.ts,
      issuedAt: state.now(),
      uses: 0,
    });
    const container: Record<string, unknown> = {
      type: "message",
      message_ts: message.ts,
      channel_id: channel,
      is_ephemeral: false,
    };
    if (message.thread_ts !== undefined) container.thread_ts = message.thread_ts;
    const body = {
      type: "block_actions",
      user: userObject,
      api_app_id: state.app.appId,
      token: "fake-verification-token",
      container,
      trigger_id: triggerId,
      team: { ...state.team },
      enterprise: null,
      is_enterprise_install: false,
      channel: {
        id: channel,
        name: channelType(channel) === "im" ? "directmessage" : `chan-${channel.toLowerCase()}`,
      },
      message: messageObject(state, message),
      state: { values: stateValues(channel, message) },
      response_url: `${state.origin}/response/${responseId}`,
      actions: [
        { ...action, action_ts: `${Math.floor(state.now() / 1000)}.${randomBytes(3).toString("hex")}` },
      ],
    };
    return { ...(await deliver(state, body)), triggerId };
  };

  return {
    async click(channel, ts, actionId, options = {}) {
      const message = messageOf(channel, ts);
      const found = buttons(message).find((b) => b.element.action_id === actionId);
      if (!found && !options.stale) {
        throw new Error(`fake Slack: message ${ts} in ${channel} has no button with action_id "${actionId}"`);
      }
      const element = found?.element ?? { text: { type: "plain_text", text: "?" } };
      const action: Record<string, unknown> = {
        action_id: actionId,
        block_id: found?.block_id ?? "stale",
        text: element.text,
        type: "button",
      };
      if (element.value !== undefined) action.value = element.value;
      return send(channel, message, action);
    },
    async choose(channel, ts, optionText, options = {}) {
      const message = messageOf(channel, ts);
      const matches = choiceGroups(message).filter(
        (group) =>
          (options.actionId === undefined || group.element.action_id === options.actionId) &&
          optionsOf(group.element).some((option) => buttonText(option) === optionText),
      );
      const group = matches[0];
      if (!group) throw new Error(`fake Slack: message ${ts} in ${channel} has no option "${optionText}"`);
      if (matches.length > 1) {
        throw new Error(`fake Slack: several groups offer "${optionText}"; say which with { actionId }`);
      }
      const option = optionsOf(group.element).find((o) => buttonText(o) === optionText) ?? {};
      const before = selectionOf(channel, ts, group);
      const chosen = before.some((o) => o.value === option.value);
      const radio = group.element.type === "radio_buttons";
      if (radio && chosen) {
        throw new Error(`fake Slack: "${optionText}" is selected already; Slack's client sends nothing`);
      }
      // A radio button replaces the choice; a checkbox toggles, and the group keeps its options' order.
      const after = radio
        ? [option]
        : optionsOf(group.element).filter((o) =>
            o.value === option.value ? !chosen : before.some((b) => b.value === o.value),
          );
      state.selections.set(selectionKey(channel, ts, group), after);
      const action: Record<string, unknown> = {
        type: group.element.type,
        action_id: group.element.action_id,
        block_id: group.block_id,
        ...(radio ? { selected_option: after[0] ?? null } : { selected_options: after }),
      };
      return send(channel, message, action);
    },
  };
}
