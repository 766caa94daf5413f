/**
 * Fake users: they write in channels and DMs, reply, click buttons, choose in selects and submit modals
 * — as events for the bot.
 */
import { randomBytes } from "node:crypto";
import { dispatch } from "./gateway.ts";
import { TEXT_INPUT_VALUE_MAX_CHARS } from "./limits.ts";
import { mentionedIds } from "./mentions.ts";
import { buildMessage, postMessage } from "./messages.ts";
import { interactionJson } from "./payloads.ts";
import {
  apiMessage,
  dmChannel,
  findMessage,
  guildOf,
  type InteractionState,
  join,
  type KnownUser,
  type State,
  snowflake,
} from "./state.ts";
import type { DcChannel, DcComponent, FakeInteraction, FakeMessage } from "./types.ts";
import { modalInputs } from "./validate-modal.ts";
import { STRING_SELECT } from "./validate-select.ts";

/** Options of {@link FakeDiscordUser.send}. */
export interface SendOptions {
  /** The message this one replies to (`message_reference`); it must exist in the channel. */
  replyTo?: string;
  /** Whether the reply pings the replied-to author (Discord's default: on). */
  mentionAuthor?: boolean;
}

/** Options of {@link FakeDiscordUser.click}. */
export interface ClickOptions {
  /**
   * Click even if the message no longer has that button (a stale message on the user's screen): the
   * button the message showed earlier with that label or `custom_id` is clicked (else the text is taken
   * as the `custom_id`). By default clicking a button that is not there throws.
   */
  stale?: boolean;
}

/** A Discord user driving the bot under test. */
export interface FakeDiscordUser {
  readonly id: string;
  readonly user: KnownUser["user"];
  /** Writes in a guild channel or thread (or a DM channel id); dispatches MESSAGE_CREATE. */
  send(channelId: string, content: string, options?: SendOptions): FakeMessage;
  /** Writes to the bot in their DM channel (created on first use). */
  sendDM(content: string, options?: SendOptions): FakeMessage;
  /** Replies to a message (`message_reference`), in its channel. */
  reply(
    channelId: string,
    messageId: string,
    content: string,
    options?: Omit<SendOptions, "replyTo">,
  ): FakeMessage;
  /** Clicks a button by its label (or `custom_id`); dispatches INTERACTION_CREATE (type 3). */
  click(channelId: string, messageId: string, button: string, options?: ClickOptions): FakeInteraction;
  /**
   * Chooses in a string select, found by its `custom_id` or placeholder: `choices` (option labels or
   * values) is the whole new selection, as the client sends it — `[]` clears it. Throws what the client
   * would not let the user do (no such select, a disabled one, an unknown option, fewer than
   * `min_values` or more than `max_values`). Dispatches INTERACTION_CREATE (type 3, component type 3).
   */
  select(channelId: string, messageId: string, select: string, choices: string[]): FakeInteraction;
  /**
   * Submits the modal an earlier interaction opened; `values` is the text of the first input, or values
   * by input `custom_id`. Throws what the client would not let the user submit (an empty required
   * input, too long). Dispatches INTERACTION_CREATE (type 5).
   */
  submitModal(opened: FakeInteraction | string, values: string | Record<string, string>): FakeInteraction;
}

function buttonsOfComponents(components: DcComponent[]): DcComponent[] {
  return components.flatMap((row) => (row.components ?? []).filter((c) => c.type === 2));
}

interface SelectOption {
  label: string;
  value: string;
}

/** The option values a user's choice in a string select sends, or why the client would not send it. */
function chosenValues(message: FakeMessage, select: string, choices: string[]): [DcComponent, string[]] {
  const selects = message.components.flatMap((row) =>
    (row.components ?? []).filter((c) => c.type === STRING_SELECT),
  );
  const found = selects.find((c) => c.custom_id === select) ?? selects.find((c) => c.placeholder === select);
  if (!found || found.disabled === true)
    throw new Error(`fake Discord: message ${message.id} has no usable string select "${select}"`);
  const options = (Array.isArray(found.options) ? found.options : []) as SelectOption[];
  const values = choices.map((choice) => {
    const option = options.find((o) => o.label === choice) ?? options.find((o) => o.value === choice);
    if (!option) throw new Error(`fake Discord: select "${select}" has no option "${choice}"`);
    return option.value;
  });
  const min = typeof found.min_values === "number" ? found.min_values : 1;
  const max = typeof found.max_values === "number" ? found.max_values : 1;
  if (new Set(values).size !== values.length || values.length < min || values.length > max)
    throw new Error(
      `fake Discord: select "${select}" takes ${min}-${max} different options; got ${values.length}`,
    );
  return [found, values];
}

/** Creates and dispatches an interaction. */
function createInteraction(
  state: State,
  known: KnownUser,
  channel: DcChannel,
  init: {
    type: 3 | 5;
    customId: string;
    message?: FakeMessage;
    values?: Record<string, string>;
    selected?: string[];
  },
): FakeInteraction {
  const guild = guildOf(state, channel);
  if (guild) join(state, guild, known.user.id);
  const record: FakeInteraction = {
    id: snowflake(state),
    token: `aW50ZXJhY3Rpb246${randomBytes(24).toString("base64url")}`,
    type: init.type,
    custom_id: init.customId,
    user_id: known.user.id,
    channel_id: channel.id,
    locale: known.locale,
    created_at: state.now(),
    followups: [],
  };
  if (guild) record.guild_id = guild.id;
  if (init.message) record.message_id = init.message.id;
  if (init.values) record.values = { ...init.values };
  if (init.type === 3) record.component_type = init.selected ? STRING_SELECT : 2;
  if (init.selected) record.selected = [...init.selected];
  const interaction: InteractionState = { record, createdAtMs: performance.now() };
  if (init.message) interaction.message = { channelId: init.message.channel_id, id: init.message.id };
  state.interactions.set(record.id, interaction);
  state.interactionList.push(record);
  const message = init.message && apiMessage(init.message);
  const payload = interactionJson(state, interaction, known.user, message);
  dispatch(state, "INTERACTION_CREATE", () => payload);
  return record;
}

/** Creates a {@link FakeDiscordUser} acting in `state`. */
export function createFakeUser(state: State, known: KnownUser): FakeDiscordUser {
  const user = known.user;
  const channelOf = (id: string) => {
    const channel = state.channels.get(id);
    if (!channel) throw new Error(`fake Discord: no channel ${id}`);
    if (channel.type === 1 && !channel.recipients?.some((r) => r.id === user.id))
      throw new Error(`fake Discord: user ${user.id} is not in DM channel ${id}`);
    return channel;
  };

  const send = (channel: DcChannel, content: string, options: SendOptions = {}) => {
    const guild = guildOf(state, channel);
    if (guild) join(state, guild, user.id);
    const replied =
      options.replyTo === undefined ? undefined : findMessage(state, channel.id, options.replyTo);
    if (options.replyTo !== undefined && !replied)
      throw new Error(`fake Discord: no message ${options.replyTo} in channel ${channel.id} to reply to`);
    const pingReplied = replied && options.mentionAuthor !== false ? replied.author.id : undefined;
    const body =
      options.replyTo === undefined
        ? { content }
        : { content, message_reference: { message_id: options.replyTo } };
    const message = buildMessage(state, {
      channel,
      author: user,
      body,
      mentions: mentionedIds(content, pingReplied),
    });
    return structuredClone(postMessage(state, message));
  };

  return {
    id: user.id,
    user,
    send: (channelId, content, options) => send(channelOf(channelId), content, options),
    sendDM: (content, options) => send(dmChannel(state, user), content, options),
    reply: (channelId, messageId, content, options = {}) =>
      send(channelOf(channelId), content, { ...options, replyTo: messageId }),
    click(channelId, messageId, button, options = {}) {
      const channel = channelOf(channelId);
      const message = findMessage(state, channel.id, messageId);
      if (!message) throw new Error(`fake Discord: no message ${messageId} in channel ${channelId}`);
      const pick = (buttons: DcComponent[]) =>
        buttons.find((b) => b.label === button && b.custom_id !== undefined) ??
        buttons.find((b) => b.custom_id === button);
      let found = pick(buttonsOfComponents(message.components));
      if (!found || found.disabled === true) {
        if (!options.stale)
          throw new Error(`fake Discord: message ${messageId} has no clickable button "${button}"`);
        found = pick([...(state.shownButtons.get(message.id) ?? [])].reverse());
      }
      const customId = found?.custom_id ?? button;
      return createInteraction(state, known, channel, { type: 3, customId, message });
    },
    select(channelId, messageId, select, choices) {
      const channel = channelOf(channelId);
      const message = findMessage(state, channel.id, messageId);
      if (!message) throw new Error(`fake Discord: no message ${messageId} in channel ${channelId}`);
      const [found, selected] = chosenValues(message, select, choices);
      const customId = String(found.custom_id);
      return createInteraction(state, known, channel, { type: 3, customId, message, selected });
    },
    submitModal(opened, values) {
      const id = typeof opened === "string" ? opened : opened.id;
      const source = state.interactions.get(id);
      const modal = source?.record.modal;
      if (!source || !modal) throw new Error(`fake Discord: interaction ${id} opened no modal`);
      const inputs = modalInputs(modal);
      const given: Record<string, string> =
        typeof values === "string" ? { [String(inputs[0]?.input.custom_id ?? "")]: values } : { ...values };
      for (const { label, input } of inputs) {
        const key = String(input.custom_id);
        const value = given[key] ?? String(input.value ?? "");
        const max = Math.min(
          Number(input.max_length ?? TEXT_INPUT_VALUE_MAX_CHARS),
          TEXT_INPUT_VALUE_MAX_CHARS,
        );
        const min = Number(input.min_length ?? 0);
        const length = [...value].length;
        if (input.required !== false && value.trim() === "")
          throw new Error(`fake Discord: "${label}" is required; the client would not submit the modal`);
        if (length > max || (length > 0 && length < min))
          throw new Error(`fake Discord: "${label}" must be ${min}-${max} characters; got ${length}`);
        given[key] = value;
      }
      const channel = channelOf(source.record.channel_id);
      const message = source.message && findMessage(state, source.message.channelId, source.message.id);
      return createInteraction(state, known, channel, {
        type: 5,
        customId: modal.custom_id,
        ...(message ? { message } : {}),
        values: given,
      });
    },
  };
}
