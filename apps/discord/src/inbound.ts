/**
 * discord.js events → core calls. The only reader of interactions and messages: button taps and modal
 * submissions go to `broker.handleAction` and are answered within Discord's 3 s; text messages go to
 * `broker.handleReply`, which answers through the channel's `notify`.
 */
import {
  type AskUserBroker,
  type DecodedAction,
  decodeAction,
  type InboundOutcome,
  isTerminal,
  renderSummary,
} from "@ask-user/core";
import {
  type ButtonInteraction,
  type Client,
  type Interaction,
  type Message,
  MessageFlags,
  MessageReferenceType,
  type ModalSubmitInteraction,
} from "discord.js";
import { dmConversation } from "./conversation.ts";
import { ANSWER_INPUT_ID, renderNotice, renderOtherModal } from "./render.ts";

/** Where the channel reports trouble (pino-compatible: details first, then the message). */
export interface DiscordLogger {
  info?(details: Record<string, unknown>, message: string): void;
  warn(details: Record<string, unknown>, message: string): void;
  error(details: Record<string, unknown>, message: string): void;
}

/** What the inbound handlers share with the channel. */
export interface InboundContext {
  client: Client;
  broker: () => AskUserBroker;
  name: string;
  logger: DiscordLogger;
  deferAfterMs: number;
  /** Taps being answered, by message id: each settles `true` once it updated that message in place. */
  inPlace: Map<string, Set<Promise<boolean>>>;
  /** Messages a tap already turned into the summary (bounded, oldest dropped first). */
  updated: Map<string, true>;
  /** Called when a guild message arrives without content (no Message Content intent). */
  contentMissing(): void;
  onUnhandledMessage?: ((message: Message) => void) | undefined;
}

type OurInteraction = ButtonInteraction | ModalSubmitInteraction;

const NO_MENTIONS = { parse: [] } as const;
const SLOW = Symbol("slow");

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

function conversationOf(
  source: { channelId: string | null; guildId: string | null },
  userId: string,
): string {
  return source.guildId === null ? dmConversation(userId) : (source.channelId ?? "");
}

/** Whether the outcome ended the question (the message then shows the summary). */
function resolves(outcome: InboundOutcome): outcome is Extract<InboundOutcome, { record: unknown }> {
  return (outcome.kind === "answered" || outcome.kind === "skipped") && isTerminal(outcome.record.status);
}

function summaryOf(outcome: InboundOutcome): string {
  if (!("record" in outcome) || !outcome.record) return "";
  return renderNotice(renderSummary(outcome.record, { locale: outcome.record.locale }));
}

/** The modal for an Other… tap: for the tapped question when known, else a generic one. */
function modalFor(interaction: OurInteraction, decoded: DecodedAction, outcome?: InboundOutcome) {
  const record = outcome && "record" in outcome ? outcome.record : undefined;
  const index = record ? record.tokens.indexOf(decoded.token) : -1;
  const question = record?.prompt.questions[index];
  return renderOtherModal(interaction.customId, question, interaction.locale);
}

/** Answers a decided tap or submission in time: update in place, modal, or an ephemeral reply. */
async function answer(
  interaction: OurInteraction,
  decoded: DecodedAction,
  outcome: InboundOutcome,
): Promise<boolean> {
  if (outcome.kind === "awaiting_text" && interaction.isButton()) {
    await interaction.showModal(modalFor(interaction, decoded, outcome));
    return false;
  }
  const bound = interaction.isButton() || interaction.isFromMessage();
  if (resolves(outcome) && bound) {
    await interaction.update({ content: summaryOf(outcome), components: [], allowedMentions: NO_MENTIONS });
    return true;
  }
  const text = "text" in outcome ? outcome.text : "";
  await interaction.reply({
    content: renderNotice(text),
    flags: MessageFlags.Ephemeral,
    allowedMentions: NO_MENTIONS,
  });
  return false;
}

/** Answers after a deferral: edit the message (it was deferred as an update), or an ephemeral follow-up. */
async function answerDeferred(
  interaction: OurInteraction,
  outcome: InboundOutcome,
  asUpdate: boolean,
): Promise<boolean> {
  if (resolves(outcome) && asUpdate) {
    await interaction.editReply({
      content: summaryOf(outcome),
      components: [],
      allowedMentions: NO_MENTIONS,
    });
    return true;
  }
  const content = renderNotice("text" in outcome ? outcome.text : "");
  if (asUpdate) {
    await interaction.followUp({ content, flags: MessageFlags.Ephemeral, allowedMentions: NO_MENTIONS });
  } else {
    await interaction.editReply({ content, allowedMentions: NO_MENTIONS });
  }
  return false;
}

function textOf(interaction: OurInteraction): string | undefined {
  if (!interaction.isModalSubmit()) return undefined;
  try {
    return interaction.fields.getTextInputValue(ANSWER_INPUT_ID);
  } catch {
    return "";
  }
}

const REMEMBER_UPDATED = 1000;

function remember(updated: Map<string, true>, messageId: string): void {
  updated.set(messageId, true);
  for (const oldest of updated.keys()) {
    if (updated.size <= REMEMBER_UPDATED) break;
    updated.delete(oldest);
  }
}

/** Handles a tap or modal submission carrying our payload; others are left to the host. */
async function onAction(
  ctx: InboundContext,
  interaction: OurInteraction,
  decoded: DecodedAction,
): Promise<void> {
  const text = textOf(interaction);
  const locale = interaction.locale ?? interaction.guildLocale ?? undefined;
  const event = {
    channel: ctx.name,
    conversation: conversationOf(interaction, interaction.user.id),
    userId: interaction.user.id,
    displayName: `@${interaction.user.username}`,
    data: interaction.customId,
    ...(text === undefined ? {} : { text }),
    ...(locale === undefined ? {} : { locale }),
  };
  const messageId = interaction.message?.id;
  let settle: (updated: boolean) => void = () => undefined;
  const settled = new Promise<boolean>((resolve) => {
    settle = resolve;
  });
  const tracked = messageId === undefined ? undefined : (ctx.inPlace.get(messageId) ?? new Set());
  if (messageId !== undefined && tracked) {
    tracked.add(settled);
    ctx.inPlace.set(messageId, tracked);
  }
  let updated = false;
  try {
    const work = ctx.broker().handleAction(event);
    let timer: NodeJS.Timeout | undefined;
    const slow = new Promise<typeof SLOW>((resolve) => {
      timer = setTimeout(() => resolve(SLOW), ctx.deferAfterMs);
    });
    const first = await Promise.race([work, slow]).finally(() => clearTimeout(timer));
    if (first !== SLOW) {
      updated = await answer(interaction, decoded, first);
    } else if (decoded.action.kind === "other" && interaction.isButton()) {
      // A modal must be the first response: show it now; the submission is checked like any answer.
      await interaction.showModal(modalFor(interaction, decoded));
      await work;
    } else {
      const asUpdate = interaction.isButton() || interaction.isFromMessage();
      if (asUpdate) await interaction.deferUpdate();
      else await interaction.deferReply({ flags: MessageFlags.Ephemeral });
      updated = await answerDeferred(interaction, await work, asUpdate);
    }
  } catch (error) {
    ctx.logger.warn(
      {
        channel: ctx.name,
        interactionId: interaction.id,
        customId: interaction.customId,
        err: describe(error),
      },
      "could not answer a Discord interaction",
    );
  } finally {
    if (updated && messageId !== undefined) remember(ctx.updated, messageId);
    settle(updated);
    tracked?.delete(settled);
    if (messageId !== undefined && tracked?.size === 0) ctx.inPlace.delete(messageId);
  }
}

/** The `interactionCreate` listener: only our buttons and modals (core's payload codec) are handled. */
export function onInteraction(ctx: InboundContext, interaction: Interaction): Promise<void> {
  if (!interaction.isButton() && !interaction.isModalSubmit()) return Promise.resolve();
  const decoded = decodeAction(interaction.customId);
  if (!decoded) return Promise.resolve();
  return onAction(ctx, interaction, decoded);
}

/** The message's text without mentions of the bot (`<@id>` / `<@!id>`). */
function textWithoutBot(message: Message, botId: string): string {
  return message.content
    .replace(new RegExp(`<@!?${botId}>`, "g"), " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** The `messageCreate` listener: text replies to questions; bots, system and webhook messages are ignored. */
export async function onMessage(ctx: InboundContext, message: Message): Promise<void> {
  const consumed = await readReply(ctx, message);
  if (!consumed) ctx.onUnhandledMessage?.(message);
}

/** Hands a person's message to the broker; true when it answered (or was refused for) a question. */
async function readReply(ctx: InboundContext, message: Message): Promise<boolean> {
  if (message.author.bot || message.system || message.webhookId !== null) return false;
  const botId = ctx.client.user?.id ?? "";
  const dm = message.guildId === null;
  if (
    !dm &&
    message.content === "" &&
    message.attachments.size === 0 &&
    message.embeds.length === 0 &&
    message.stickers.size === 0 &&
    !message.mentions.users.has(botId)
  ) {
    ctx.contentMissing();
    return false;
  }
  const text = textWithoutBot(message, botId);
  if (text === "") return false;
  const reference = message.reference;
  const replyTo =
    reference?.messageId !== undefined &&
    reference.type !== MessageReferenceType.Forward &&
    reference.channelId === message.channelId
      ? reference.messageId
      : undefined;
  try {
    const outcome = await ctx.broker().handleReply({
      channel: ctx.name,
      conversation: conversationOf(message, message.author.id),
      userId: message.author.id,
      displayName: `@${message.author.username}`,
      text,
      messageId: message.id,
      ...(replyTo === undefined ? {} : { replyTo }),
    });
    return outcome.kind !== "ignored";
  } catch (error) {
    ctx.logger.error(
      { channel: ctx.name, messageId: message.id, err: describe(error) },
      "could not handle a Discord message",
    );
    return false;
  }
}
