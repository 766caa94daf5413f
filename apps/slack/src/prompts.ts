/**
 * The prompt message of a question through its life: posted (buttons, a form, or readable text),
 * re-rendered while a form's shared draft changes, and edited to the summary once the question ends.
 */
import {
  AskUserError,
  ChannelError,
  type DeliverRequest,
  type DeliveryRef,
  type FinalizeRequest,
  isForm,
  promptAudience,
  type QuestionRecord,
  type RefreshRequest,
  renderPromptText,
  renderSummary as summaryOf,
} from "@ask-user/core";
import { type EarlierPosts, promptMetadata } from "./earlier-post.ts";
import { renderForm } from "./form.ts";
import type { Outbound } from "./outbound.ts";
import { renderQuestion, renderSummary, renderText, type SlackMessage } from "./render.ts";
import { mention } from "./users.ts";

/** The prompt as posted: a form (several questions, multi-select), buttons, or core's readable text. */
function promptMessage(request: DeliverRequest): SlackMessage {
  const { record, locale, forName } = request;
  const text = renderText(request.text, record, locale, forName);
  if (isForm(record.prompt)) {
    return (
      renderForm(record, locale, { text: text.text, ...(forName === undefined ? {} : { forName }) }) ?? text
    );
  }
  return request.buttons ? renderQuestion(record, locale, forName) : text;
}

/**
 * The summary edit. The attribution is kept as a mention when it is one (`<@U…>`, what people are called
 * when `users.info` gave no name), which Slack shows as the person's name.
 */
function summaryMessage(channelName: string, record: QuestionRecord, summary: string): SlackMessage {
  const by = record.resolvedBy;
  const named =
    by?.channel === channelName && by.displayName === mention(by.userId) ? by.displayName : undefined;
  return renderSummary(summary, named);
}

/**
 * Posts the prompt to `record.target`, with metadata naming its question; its `ts` is the delivery's
 * message id. A re-send (repair) first adopts the question's earlier post when Slack lists it
 * (`earlier-post.ts`), so that a post that reached Slack just before a crash is not doubled.
 */
export async function deliverPrompt(
  out: Outbound,
  request: DeliverRequest,
  earlier?: EarlierPosts,
): Promise<DeliveryRef> {
  const { record } = request;
  if (!record.target) throw new AskUserError("invalid_input", "The question has no target conversation.");
  const place = await out.where(record.target.conversation);
  const { channel, threadTs } = place;
  if (request.resend && earlier) {
    const adopted = await earlier.find(place, record);
    if (adopted !== undefined) {
      out.logger.warn(
        { channel: out.name, questionId: record.id, messageId: adopted },
        `${out.name}: the prompt was posted before the crash; keeping that message`,
      );
      return { messageId: adopted };
    }
  }
  const message = promptMessage(request);
  // Posted once: a post whose connection failed may have reached Slack (see retry.ts).
  const result = await out.call("chat.postMessage", () =>
    out.client.chat.postMessage({
      channel,
      text: message.text,
      ...(message.blocks ? { blocks: message.blocks } : {}),
      ...(threadTs === undefined ? {} : { thread_ts: threadTs }),
      metadata: promptMetadata(record.id),
      unfurl_links: false,
      unfurl_media: false,
    }),
  );
  if (!result.ts) {
    throw new ChannelError(out.name, "unreachable", "Slack answered chat.postMessage without a message ts", {
      method: "chat.postMessage",
    });
  }
  return { messageId: result.ts };
}

/** Edits a delivered prompt to its summary; a message that is gone counts as done. */
export async function finalizePrompt(out: Outbound, request: FinalizeRequest): Promise<void> {
  const { channel } = await out.where(request.delivery.conversation);
  await out.edit(
    channel,
    request.delivery.messageId,
    summaryMessage(out.name, request.record, request.summary),
  );
}

/**
 * Shows a form's changed draft in its message (`chat.update` with each group's new selection). Then, if
 * the question ended while the edit was on its way (a Send that won the race, on any instance), the
 * summary is edited in again, so that it is the last edit whatever order Slack got the two in.
 */
export async function refreshPrompt(out: Outbound, request: RefreshRequest): Promise<void> {
  const { record, delivery, locale } = request;
  if (!isForm(record.prompt)) return; // buttons and text show no draft
  const place = await out.where(delivery.conversation);
  const forName = promptAudience(record, place.direct);
  const core = renderPromptText(record.prompt, {
    locale,
    expiresAt: record.expiresAt,
    now: Date.now(),
    ...(forName === undefined ? {} : { forName }),
  });
  const text = renderText(core, record, locale, forName).text;
  const form = renderForm(record, locale, { text, ...(forName === undefined ? {} : { forName }) });
  if (!form) return; // asked as text
  await out.edit(place.channel, delivery.messageId, form);
  const latest = await out.broker()?.get(record.id);
  if (latest && latest.status !== "pending") {
    const summary = summaryOf(latest, { locale: latest.locale });
    await out.edit(place.channel, delivery.messageId, summaryMessage(out.name, latest, summary));
  }
}
