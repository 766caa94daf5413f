/** Fake users: they write messages, tap buttons and submit modals, which the fake hands to the app. */
import { randomBytes, randomUUID } from "node:crypto";
import { buttons, buttonText, inputValues } from "./controls.ts";
import { type ChooseOptions, type ClickOptions, createInteractions } from "./interactions.ts";
import { isObject } from "./params.ts";
import {
  channelType,
  dmId,
  findMessage,
  nextTs,
  notify,
  type State,
  storeMessage,
  waitUntil,
} from "./state.ts";
import { deliver, deliverEvent, eventCallback } from "./transport.ts";
import type {
  Delivery,
  FakeEphemeral,
  FakeSlackMessage,
  FakeView,
  Interaction,
  SentMessage,
  SlackUserInit,
} from "./types.ts";
import { typedToWire } from "./wire.ts";

/** Options of {@link FakeSlackUser.say}. */
export interface SayOptions {
  /** Reply in the thread of this message (its root, if it is itself a reply). */
  threadTs?: string;
  /**
   * `text` is the wire text, sent as is (e.g. `<@U0BOB|bob>` or `<#C1|general>`). By default `text` is
   * what the person typed and is encoded as Slack does (see {@link typedToWire}).
   */
  raw?: boolean;
}

/** A person in the fake workspace, driving the app under test. */
export interface FakeSlackUser {
  readonly id: string;
  readonly info: SlackUserInit;
  /** The user's DM conversation with the app (`D…`). */
  readonly dm: string;
  /**
   * Types a message (a `message` event); in a thread with `threadTs`. The event's `text` is encoded as
   * Slack does (`&lt;`, `:two:`, `<@U123>`, `<https://x>`) unless `raw`. Resolves once the app acked
   * it (Slack redelivers it when that took over 3 s).
   */
  say(channel: string, text: string, options?: SayOptions): Promise<SentMessage>;
  /** Clicks the button labelled `buttonText` (a `block_actions` request). */
  press(channel: string, ts: string, buttonText: string): Promise<Interaction>;
  /** Clicks the button with this `action_id`. */
  click(channel: string, ts: string, actionId: string, options?: ClickOptions): Promise<Interaction>;
  /**
   * Selects the radio button, or ticks or unticks the checkbox, whose option text is `optionText` (a
   * `block_actions` with the group's whole selection as this person's client shows it: the group's
   * initial options until they change it, while the message keeps that block). Selecting the radio
   * button that is selected already throws: Slack's client sends nothing then.
   */
  choose(channel: string, ts: string, optionText: string, options?: ChooseOptions): Promise<Interaction>;
  /**
   * Submits an open modal (a `view_submission`): a string fills its only text input, an object fills
   * inputs by `action_id`. Like Slack's client, refuses to send an empty required input or text over
   * `max_length`. The view's `errors`/`open` follow the app's answer.
   */
  submit(viewId: string, values: string | Record<string, string>): Promise<Delivery>;
  /** The ephemeral messages this user got, oldest first. */
  ephemerals(): FakeEphemeral[];
  /** The first ephemeral (past or future) matching `check`; rejects after `timeoutMs`. */
  waitForEphemeral(check?: (e: FakeEphemeral) => boolean, timeoutMs?: number): Promise<FakeEphemeral>;
  /** The newest open modal of this user, once there is one; rejects after `timeoutMs`. */
  waitForView(timeoutMs?: number): Promise<FakeView>;
  /**
   * Closes an open modal without submitting it (Cancel, ×, Esc). Slack tells the app (`view_closed`)
   * only when the view was opened with `notify_on_close: true`; resolves with that delivery, if any.
   */
  dismiss(viewId: string): Promise<Delivery | undefined>;
}

/** Creates a {@link FakeSlackUser} acting in `state` (already registered in `state.users`). */
export function createFakeSlackUser(state: State, info: SlackUserInit): FakeSlackUser {
  const userObject = { id: info.id, username: info.name, name: info.name, team_id: state.team.id };
  const dm = dmId(info.id);

  const issueTrigger = () => {
    const triggerId = `${Date.now()}.${state.seq + 1}.${randomBytes(16).toString("hex")}`;
    state.triggers.set(triggerId, { user: info.id, issuedAt: state.now(), exchanged: false });
    return triggerId;
  };
  const { click, choose } = createInteractions(state, info);

  return {
    id: info.id,
    info,
    dm,
    async say(channel, typed, options = {}) {
      const text = options.raw ? typed : typedToWire(state, typed);
      const ts = nextTs(state);
      const message: FakeSlackMessage = { channel, ts, user: info.id, text, blocks: [], edits: 0 };
      if (info.bot_id !== undefined) message.bot_id = info.bot_id;
      const event: Record<string, unknown> = {
        type: "message",
        channel,
        user: info.id,
        text,
        ts,
        event_ts: ts,
        channel_type: channelType(channel),
        team: state.team.id,
      };
      if (info.bot_id === undefined) event.client_msg_id = randomUUID();
      else event.bot_id = info.bot_id;
      if (options.threadTs !== undefined) {
        const parent = findMessage(state, channel, options.threadTs);
        if (!parent) throw new Error(`fake Slack: no message ${options.threadTs} in ${channel} to reply to`);
        message.thread_ts = parent.thread_ts ?? parent.ts;
        event.thread_ts = message.thread_ts;
        event.parent_user_id = parent.user;
      }
      storeMessage(state, message);
      const delivery = await deliverEvent(state, eventCallback(state, event));
      return { message: structuredClone(message), delivery };
    },
    async press(channel, ts, text) {
      const message = findMessage(state, channel, ts);
      if (!message) throw new Error(`fake Slack: no message ${ts} in ${channel}`);
      const found = buttons(message).find((b) => buttonText(b.element) === text);
      if (!found) throw new Error(`fake Slack: message ${ts} in ${channel} has no button "${text}"`);
      return click(channel, ts, String(found.element.action_id ?? ""));
    },
    click,
    choose,
    async submit(viewId, values) {
      const view = state.views.get(viewId);
      if (!view?.open) throw new Error(`fake Slack: no open view ${viewId}`);
      if (view.user !== info.id) throw new Error(`fake Slack: view ${viewId} is not open for ${info.id}`);
      const submitted = { ...structuredClone(view.view), state: { values: inputValues(view.view, values) } };
      const body = {
        type: "view_submission",
        team: { ...state.team },
        user: userObject,
        api_app_id: state.app.appId,
        token: "fake-verification-token",
        trigger_id: issueTrigger(),
        view: submitted,
        response_urls: [],
        is_enterprise_install: false,
        enterprise: null,
      };
      const delivery = await deliver(state, body);
      const answer = isObject(delivery.body) ? delivery.body : {};
      if (delivery.status !== 200 || delivery.lost) return delivery; // Slack saw no answer: the modal stays
      if (answer.response_action === "errors" && isObject(answer.errors)) {
        view.errors = Object.fromEntries(Object.entries(answer.errors).map(([k, v]) => [k, String(v)]));
      } else if (answer.response_action === "update" && isObject(answer.view)) {
        view.view = { ...view.view, ...answer.view, id: view.id };
        delete view.errors;
      } else if (answer.response_action !== "push") {
        view.open = false;
        delete view.errors;
      }
      view.view.state = submitted.state;
      return delivery;
    },
    ephemerals: () => state.ephemerals.filter((e) => e.user === info.id).map((e) => structuredClone(e)),
    waitForEphemeral(check = () => true, timeoutMs) {
      return waitUntil(
        state,
        () => state.ephemerals.find((e) => e.user === info.id && check(e)),
        timeoutMs,
        `an ephemeral message for ${info.id}`,
      );
    },
    async dismiss(viewId) {
      const view = state.views.get(viewId);
      if (!view?.open) throw new Error(`fake Slack: no open view ${viewId}`);
      if (view.user !== info.id) throw new Error(`fake Slack: view ${viewId} is not open for ${info.id}`);
      view.open = false;
      delete view.errors;
      notify(state);
      if (view.view.notify_on_close !== true) return undefined;
      return deliver(state, {
        type: "view_closed",
        team: { ...state.team },
        user: userObject,
        api_app_id: state.app.appId,
        token: "fake-verification-token",
        view: structuredClone(view.view),
        is_cleared: false,
        is_enterprise_install: false,
        enterprise: null,
      });
    },
    waitForView(timeoutMs) {
      return waitUntil(
        state,
        () => [...state.views.values()].reverse().find((v) => v.user === info.id && v.open),
        timeoutMs,
        `an open modal for ${info.id}`,
      );
    },
  };
}
