/**
 * A prompt's message over REST: delivered (buttons, a form or text, sent once per question by its
 * nonce), re-rendered when a form's draft changes anywhere, and edited to the summary when the question
 * ends. Core's form state (`PromptMessages`, shared with the taps) keeps the edits of one message in
 * order: a tap's own update is not sent again, and a summary is never overwritten by a form.
 */
import {
  AskUserError,
  type Channel,
  isForm,
  type PromptMessages,
  promptAudience,
  type QuestionRecord,
} from "@ask-user/core/channel";
import { isSettledEditError } from "./errors.ts";
import { type Outbound, promptNonce } from "./outbound.ts";
import { renderSummaryContent } from "./render/notice.ts";
import { discordView, type RenderedMessage, renderPrompt, samenessOf } from "./render/prompt.ts";

export interface PromptDeps {
  name: string;
  outbound: Outbound;
  messages: PromptMessages;
  /** The missing-intent hint a prompt carries in a guild channel, if any. */
  hint(locale: string, dm: boolean): string | undefined;
}

/** A form's message for a record as it stands, in a DM or a guild channel (also what a tap shows). */
export function formMessage(deps: PromptDeps, record: QuestionRecord, dm: boolean): RenderedMessage {
  return renderPrompt(discordView(record, false, promptAudience(record, dm)), deps.hint(record.locale, dm));
}

export function createPrompts(deps: PromptDeps): Required<Pick<Channel, "deliver" | "finalize" | "refresh">> {
  const { name, outbound, messages } = deps;
  return {
    async deliver({ record, buttons, forName }) {
      const conversation = record.target?.conversation;
      if (conversation === undefined)
        throw new AskUserError("invalid_input", "The question has no target conversation.");
      const target = await outbound.target(conversation);
      const view = discordView(record, buttons, forName);
      const payload = renderPrompt(view, deps.hint(record.locale, target.dm));
      // The nonce makes a second delivery (a repair after a crash mid-send) return the first message.
      const body = { ...payload, nonce: promptNonce(record.id), enforce_nonce: true };
      const messageId = await outbound.send(target.channelId, body);
      if (isForm(record.prompt)) messages.sent(messageId, record, samenessOf(payload));
      return { messageId };
    },
    async finalize({ record, delivery: { messageId, conversation } }) {
      await messages.end(messageId, async () => {
        // A tap that resolved the question updated its message in place (type 7): no second edit.
        if (await messages.tapsSettled(messageId)) return;
        try {
          const { channelId } = await outbound.target(conversation);
          await outbound.edit(channelId, messageId, {
            content: renderSummaryContent(record, name),
            components: [],
          });
        } catch (error) {
          if (!isSettledEditError(error)) throw error;
        }
      });
    },
    async refresh({ record, delivery: { messageId, conversation } }) {
      if (!isForm(record.prompt) || messages.ended(messageId)) return;
      const target = await outbound.target(conversation);
      // After the taps on this message (each shows its own outcome); never over the summary.
      await messages.show(messageId, record, (latest) => {
        const payload = formMessage(deps, latest, target.dm);
        return {
          sameness: samenessOf(payload),
          send: () => outbound.edit(target.channelId, messageId, payload),
        };
      });
    },
  };
}
