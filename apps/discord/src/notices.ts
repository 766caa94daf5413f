/**
 * `notify` on Discord: a confirmation as a reaction on the person's message (the prompt's own edit to
 * the summary already says what was recorded), a private notice by DM (no ephemeral messages outside
 * interactions), anything else as a reply in the conversation.
 */
import { type Channel, type ChannelLogger, describeError, isConfirmation } from "@ask-user/core/channel";
import { formatConversation } from "./conversation.ts";
import type { Outbound } from "./outbound.ts";
import { renderNotice } from "./render/notice.ts";

export function createNotify(name: string, logger: ChannelLogger, outbound: Outbound): Channel["notify"] {
  return async ({ conversation, text, userId, private: only, replyTo, purpose }) => {
    const target = await outbound.target(conversation);
    if (isConfirmation(purpose) && replyTo !== undefined) {
      try {
        await outbound.react(target.channelId, replyTo, purpose === "skipped" ? "⏭️" : "✅");
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
      try {
        const dm = await outbound.dm(userId);
        const messageId = await outbound.send(dm.channelId, { content });
        // A reply to it comes from the DM, so that is where it is remembered.
        return { messageId, conversation: formatConversation({ kind: "user", id: userId }) };
      } catch (error) {
        logger.warn(
          { channel: name, userId, err: describeError(error) },
          "Discord: private notice by DM failed",
        );
      }
    }
    const reference =
      replyTo === undefined ? {} : { message_reference: { message_id: replyTo, fail_if_not_exists: false } };
    const allowed_mentions = { parse: [] as [], replied_user: false };
    return { messageId: await outbound.send(target.channelId, { content, allowed_mentions, ...reference }) };
  };
}
