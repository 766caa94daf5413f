/**
 * discord.js events → core calls, each once among instances: taps, selects and modal submissions go to
 * `broker.handleAction`, acknowledged within Discord's 3 s however slow the store is; text messages go
 * to `broker.handleReply`, which answers through `notify`.
 */
import {
  type ActionEvent,
  type AskUserBroker,
  type ChannelLogger,
  type DecodedAction,
  decodeAction,
  describeError,
  type Once,
  pause,
  TIMED_OUT,
  within,
} from "@ask-user/core/channel";
import {
  DiscordAPIError,
  type Interaction,
  type Message,
  MessageFlags,
  MessageReferenceType,
  RESTJSONErrorCodes,
} from "discord.js";
import { formatConversation } from "./conversation.ts";
import { ANSWER_INPUT_ID } from "./other-modal.ts";
import { nameOf } from "./render/notice.ts";
import { replyText } from "./reply-text.ts";
import { answer, boundToMessage, modalFor, type Responder, type TapOrSubmit } from "./taps.ts";

export interface InboundContext extends Responder {
  once: Once;
  /** The bot's own user id (its mentions are not part of a reply). */
  botId(): string;
  broker: AskUserBroker;
  logger: ChannelLogger;
  deferAfterMs: number;
  /** Standalone only (the client is ours): acknowledge a button or modal nobody answered. */
  acknowledgeUnhandled: boolean;
  /** A guild message arrived without content (no Message Content intent). */
  contentMissing(): void;
  onUnhandledMessage?: ((message: Message) => void) | undefined;
}

/** Another instance took the event. */
const ELSEWHERE = Symbol("elsewhere");

const conversationOf = (source: { channelId: string | null; guildId: string | null }, userId: string) =>
  source.guildId === null ? formatConversation({ kind: "user", id: userId }) : (source.channelId ?? "");

/** A modal's text, a string select's option indices (its values, for a `choose` control), or nothing. */
function inputOf(interaction: TapOrSubmit): Pick<ActionEvent, "text" | "values"> {
  if (interaction.isStringSelectMenu()) return { values: interaction.values.map(Number) };
  if (!interaction.isModalSubmit()) return {};
  try {
    return { text: interaction.fields.getTextInputValue(ANSWER_INPUT_ID) };
  } catch {
    return { text: "" };
  }
}

async function onAction(
  ctx: InboundContext,
  interaction: TapOrSubmit,
  decoded: DecodedAction,
): Promise<void> {
  const locale = interaction.locale ?? interaction.guildLocale ?? undefined;
  // Other… opens a modal: nothing is stored until it is submitted (dismissing it leaves nothing behind).
  const opensModal = decoded.action.kind === "other" && interaction.isButton();
  const event: ActionEvent = {
    channel: ctx.name,
    conversation: conversationOf(interaction, interaction.user.id),
    userId: interaction.user.id,
    displayName: nameOf(interaction.user),
    data: interaction.customId,
    ...inputOf(interaction),
    ...(locale === undefined ? {} : { locale }),
    opensModal,
  };
  const messageId = interaction.message?.id;
  // `finalize` and `refresh` of this message wait for the tap: it may update the message in place.
  const done = messageId === undefined ? undefined : ctx.messages.tapping(messageId);
  let summary = false;
  try {
    // The dedupe key and the answer are both store writes: a slow store (a SQLite write lock held by
    // another process) delays both, so both race the timer and the tap is acknowledged in time anyway.
    const work = (async () =>
      (await ctx.once.take(interactionKey(interaction))) ? ctx.broker.handleAction(event) : ELSEWHERE)();
    void work.catch(() => undefined); // awaited below on every path that gets that far
    const first = await within(work, ctx.deferAfterMs);
    if (first === ELSEWHERE) return;
    if (first !== TIMED_OUT) {
      summary = await answer(ctx, interaction, decoded, first);
    } else if (opensModal) {
      // A modal must be the first response: show it now; the submission is checked like any answer.
      await interaction.showModal(modalFor(interaction, decoded));
      await work;
    } else {
      // Acknowledged neutrally now (nothing changes on screen); the outcome follows when it is known.
      const asUpdate = boundToMessage(interaction);
      if (asUpdate) await asUpdate.deferUpdate();
      else await interaction.deferReply({ flags: MessageFlags.Ephemeral });
      const outcome = await work;
      // Taken elsewhere after this deferral (a slow store during a hand-over): that instance answers.
      if (outcome === ELSEWHERE) return;
      summary = await answer(ctx, interaction, decoded, outcome, true);
    }
  } catch (error) {
    warnFailed(ctx, interaction, "answer", error);
  } finally {
    done?.(summary);
  }
}

/** Defers an interaction nobody answered in time (the plugin's own client), on the instance that takes it. */
async function acknowledgeLater(ctx: InboundContext, interaction: TapOrSubmit): Promise<void> {
  const [taken] = await Promise.all([ctx.once.take(interactionKey(interaction)), pause(ctx.deferAfterMs)]);
  const bound = boundToMessage(interaction);
  if (!taken || interaction.replied || interaction.deferred || !bound) return;
  try {
    await bound.deferUpdate();
  } catch (error) {
    // Answered meanwhile by someone else (40060): nothing to do.
    const acknowledged = RESTJSONErrorCodes.InteractionHasAlreadyBeenAcknowledged;
    if (!(error instanceof DiscordAPIError && error.code === acknowledged))
      warnFailed(ctx, interaction, "acknowledge", error);
  }
}

function warnFailed(ctx: InboundContext, interaction: TapOrSubmit, what: string, error: unknown): void {
  const fields = { interactionId: interaction.id, customId: interaction.customId, err: describeError(error) };
  ctx.logger.warn({ channel: ctx.name, ...fields }, `could not ${what} a Discord interaction`);
}

/** Ours (core's payload codec) are handled; others left to the host. A second answer would get 40060. */
export async function onInteraction(ctx: InboundContext, interaction: Interaction): Promise<void> {
  if (!interaction.isButton() && !interaction.isStringSelectMenu() && !interaction.isModalSubmit()) return;
  const decoded = decodeAction(interaction.customId);
  if (decoded) await onAction(ctx, interaction, decoded);
  else if (ctx.acknowledgeUnhandled) await acknowledgeLater(ctx, interaction);
}

const interactionKey = (interaction: Interaction) => `discord:interaction:${interaction.id}`;

/** Among instances, exactly one hands a message that answered nothing to `onUnhandledMessage`. */
export async function onMessage(ctx: InboundContext, message: Message): Promise<void> {
  const read = await readReply(ctx, message);
  if (read === "consumed" || read === "elsewhere" || !ctx.onUnhandledMessage) return;
  if (read === "ours" || (await ctx.once.take(messageKey(message)))) ctx.onUnhandledMessage(message);
}

const messageKey = (message: Message) => `discord:message:${message.id}`;

/** `consumed` (answered or refused), `elsewhere` (taken by another instance), `ours` (taken, answered nothing), `unread`. */
async function readReply(
  ctx: InboundContext,
  message: Message,
): Promise<"consumed" | "elsewhere" | "ours" | "unread"> {
  if (message.author.bot || message.system || message.webhookId !== null) return "unread";
  const botId = message.client.user?.id ?? ctx.botId();
  const { content, attachments, embeds, stickers } = message;
  const empty = content === "" && attachments.size === 0 && embeds.length === 0 && stickers.size === 0;
  if (empty && message.guildId !== null && !message.mentions.users.has(botId)) {
    ctx.contentMissing();
    return "unread";
  }
  const text = replyText(content, botId);
  if (text === "") return "unread";
  if (!(await ctx.once.take(messageKey(message)))) return "elsewhere";
  const ref = message.reference; // a reply in this channel (a forward is no reply)
  const isReply = ref?.type !== MessageReferenceType.Forward && ref?.channelId === message.channelId;
  const replyTo = isReply && ref?.messageId !== undefined ? { replyTo: ref.messageId } : {};
  try {
    const outcome = await ctx.broker.handleReply({
      channel: ctx.name,
      conversation: conversationOf(message, message.author.id),
      userId: message.author.id,
      displayName: nameOf(message.author),
      text,
      messageId: message.id,
      ...replyTo,
    });
    return outcome.kind === "ignored" ? "ours" : "consumed";
  } catch (error) {
    ctx.logger.error(
      { channel: ctx.name, messageId: message.id, err: describeError(error) },
      "could not handle a Discord message",
    );
    return "ours";
  }
}
