/**
 * Core's `Channel` port over Discord's REST API: deliver a prompt (buttons, a form or text), edit it to
 * the summary, re-render a form's selections, notify (a confirmation as a reaction), name people and
 * show times in each reader's zone.
 */
import {
  AskUserError,
  type Channel,
  type ChannelLogger,
  describeError,
  isConfirmation,
  isForm,
  messagesFor,
  promptAudience,
  type QuestionRecord,
} from "@ask-user/core";
import type { APIAllowedMentions } from "discord.js";
import { formatConversation, parseConversation } from "./conversation.ts";
import { isSettledEditError } from "./errors.ts";
import { renderFormPrompt } from "./form.ts";
import { BUTTON_LABEL_MAX_CHARS, BUTTONS_MAX } from "./limits.ts";
import { discordTime } from "./markdown.ts";
import { formKey, type MessageStates, remember, serial, tapsSettled } from "./message-state.ts";
import { mentionOf, renderNotice, renderSummaryNotice } from "./notice.ts";
import { type Outbound, promptNonce } from "./outbound.ts";
import { type PromptContext, type RenderedMessage, renderButtonPrompt, renderTextPrompt } from "./render.ts";

/** What the port needs from the channel around it. */
export interface PortDeps {
  name: string;
  logger: ChannelLogger;
  outbound: Outbound;
  states: MessageStates;
  /** The prompt context for a record in a DM or a guild channel (locale, missing-intent hint). */
  context(locale: string, dm: boolean, forName: string | undefined): PromptContext;
}

const NO_MENTIONS: APIAllowedMentions = { parse: [] };

/**
 * The reaction a quiet confirmation puts on the person's message: the prompt's own edit to the summary
 * already says what was recorded, so a reply saying it again would only add noise.
 */
const CONFIRMED = "✅";
const SKIPPED = "⏭️";

/** A form's message for a record as it stands (also what a tap on it shows). */
export function formView(deps: PortDeps, record: QuestionRecord, dm: boolean): RenderedMessage {
  return renderFormPrompt(record, deps.context(record.locale, dm, promptAudience(record, dm)));
}

/** Core's `Channel` for Discord. */
export function createPort(deps: PortDeps): Channel {
  const { name, logger, outbound, states } = deps;
  return {
    name,
    capabilities: {
      buttons: true,
      edit: true,
      privateNotices: true,
      maxButtons: BUTTONS_MAX,
      maxButtonLabel: BUTTON_LABEL_MAX_CHARS,
      ingress: "connection",
    },
    isDirect: (conversation) => parseConversation(conversation)?.kind === "user",
    async deliver({ record, locale, text, buttons, forName }) {
      const conversation = record.target?.conversation;
      if (conversation === undefined)
        throw new AskUserError("invalid_input", "The question has no target conversation.");
      const target = await outbound.target(conversation);
      const form = isForm(record.prompt);
      const context = deps.context(locale, target.dm, forName);
      const payload = form
        ? formView(deps, record, target.dm)
        : buttons
          ? renderButtonPrompt(record, context)
          : { content: renderTextPrompt(record, text, context), components: [] };
      // The nonce makes a second delivery (a repair after a crash mid-send) return the first message.
      const messageId = await outbound.send(target.channelId, {
        ...payload,
        allowed_mentions: NO_MENTIONS,
        nonce: promptNonce(record.id),
        enforce_nonce: true,
      });
      if (form) remember(states.forms, messageId, formKey(payload));
      return { messageId };
    },
    async finalize({ record, delivery, summary }) {
      const messageId = delivery.messageId;
      remember(states.ended, messageId, true);
      // A tap that resolved the question updates its message in place (type 7): no second edit.
      if ((await tapsSettled(states, messageId)) || states.summaries.has(messageId)) return;
      await serial(states, messageId, async () => {
        try {
          const target = await outbound.target(delivery.conversation);
          await outbound.edit(target.channelId, messageId, {
            content: renderSummaryNotice(summary, record.resolvedBy, name),
            components: [],
            allowed_mentions: NO_MENTIONS,
          });
        } catch (error) {
          if (!isSettledEditError(error)) throw error;
        }
      });
    },
    async refresh({ record, delivery }) {
      if (!isForm(record.prompt)) return;
      const messageId = delivery.messageId;
      await serial(states, messageId, async () => {
        // A tap on this message shows its own outcome first; an ended question keeps its summary.
        await tapsSettled(states, messageId);
        if (states.summaries.has(messageId) || states.ended.has(messageId)) return;
        const target = await outbound.target(delivery.conversation);
        const payload = formView(deps, record, target.dm);
        const key = formKey(payload);
        if (states.forms.get(messageId) === key) return;
        await outbound.edit(target.channelId, messageId, { ...payload, allowed_mentions: NO_MENTIONS });
        remember(states.forms, messageId, key);
      });
    },
    async notify({ conversation, text, userId, private: only, replyTo, purpose, locale }) {
      const target = await outbound.target(conversation);
      if (isConfirmation(purpose) && replyTo !== undefined) {
        // Quiet: the prompt's summary edit says what was recorded; a reaction says "got it".
        const emoji = purpose === "skipped" ? SKIPPED : CONFIRMED;
        try {
          await outbound.react(target.channelId, replyTo, emoji);
          return undefined;
        } catch (error) {
          logger.warn(
            { channel: name, err: describeError(error) },
            "Discord: could not react to confirm, replying instead",
          );
        }
      }
      const content = renderNotice(text);
      if (only && userId !== undefined && !target.dm) {
        // No ephemeral messages outside interactions: tell the person in their DM instead.
        try {
          const dm = await outbound.dm(userId);
          const messageId = await outbound.send(dm.channelId, { content, allowed_mentions: NO_MENTIONS });
          // A reply to it comes from the DM, so that is where it is remembered.
          return { messageId, conversation: formatConversation({ kind: "user", id: userId }) };
        } catch (error) {
          logger.warn(
            { channel: name, userId, err: describeError(error) },
            "Discord: private notice by DM failed",
          );
        }
      }
      const messageId = await outbound.send(target.channelId, {
        content,
        allowed_mentions: { parse: [], replied_user: false },
        ...(replyTo === undefined
          ? {}
          : { message_reference: { message_id: replyTo, fail_if_not_exists: false } }),
      });
      return { messageId };
    },
    async displayName(userId) {
      // `<@id>`: every client shows the name; every message is sent with mentions suppressed.
      return mentionOf(userId);
    },
    formatTime: (epochMs) => discordTime(epochMs),
  };
}
