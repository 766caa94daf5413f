/**
 * Notices (`Channel.notify`): refusals ephemeral, the stepper and hints in the thread of the person's
 * message, a confirmation as a ✅ reaction (the summary says what was recorded; README "Confirmation style").
 */
import {
  ChannelError,
  type DeliveryRef,
  describeError,
  isConfirmation,
  type Notice,
} from "@ask-user/core/channel";
import type { RespondFn } from "@slack/bolt";
import { parseMessageRef } from "./conversation.ts";
import type { Outbound } from "./outbound.ts";
import { renderNotice, renderPrivateNotice } from "./render/mrkdwn.ts";

/** Shows `text` to one user only (nobody can reply): the interaction's `response_url`, else `chat.postEphemeral`. */
export async function tellPrivately(
  out: Outbound,
  where: { channel: string; user: string; threadTs?: string | undefined },
  text: string,
  respond?: RespondFn,
): Promise<void> {
  const { text: body } = renderPrivateNotice(text);
  if (respond) {
    await respond({ response_type: "ephemeral", replace_original: false, text: body });
    return;
  }
  const { channel, user, threadTs } = where;
  const thread = threadTs === undefined ? {} : { thread_ts: threadTs };
  await out.call("chat.postEphemeral", () =>
    out.client.chat.postEphemeral({ channel, user, text: body, ...thread }),
  );
}

/** Adds the confirmation reaction; false when Slack would not (then a message confirms instead). */
async function react(out: Outbound, channel: string, timestamp: string): Promise<boolean> {
  try {
    await out.idempotent("reactions.add", () =>
      out.client.reactions.add({ channel, timestamp, name: "white_check_mark" }),
    );
    return true;
  } catch (error) {
    if (error instanceof ChannelError && error.status === "already_reacted") return true;
    out.logger.warn(
      { channel: out.name, conversation: channel, err: describeError(error) },
      "could not react to confirm an answer; confirming with a message",
    );
    return false;
  }
}

/** Sends a notice; returns the thread root people reply in, or `undefined` when nobody can reply. */
export async function sendNotice(out: Outbound, notice: Notice): Promise<DeliveryRef | undefined> {
  const { text, userId, replyTo } = notice;
  const place = await out.where(notice.conversation);
  const ref = replyTo === undefined ? undefined : parseMessageRef(replyTo);
  if (isConfirmation(notice.purpose) && ref && (await react(out, place.channel, ref.ts))) return undefined;
  // In a channel a notice goes into the thread of the person's message (or the thread it is in); in a
  // DM below it, unless they wrote in a thread.
  const threadTs = ref?.threadTs ?? (place.direct ? undefined : ref?.ts) ?? place.threadTs;
  if (notice.private && userId !== undefined) {
    await tellPrivately(out, { channel: place.channel, user: userId, threadTs }, text);
    return undefined;
  }
  const result = await out.call("chat.postMessage", () =>
    out.client.chat.postMessage({
      channel: place.channel,
      text: renderNotice(text).text,
      ...(threadTs === undefined ? {} : { thread_ts: threadTs }),
      unfurl_links: false,
      unfurl_media: false,
    }),
  );
  // In Slack one replies to a thread, not to a message in it: replies to this notice carry the
  // thread's root as their `thread_ts`, so that is the id they route by (and the broker records).
  const root = threadTs ?? result.ts;
  return root === undefined ? undefined : { messageId: root };
}
