/**
 * The Web API calls, failures as `ChannelError`: the prompt posted once (a post whose connection failed
 * may have reached Slack), its edits through core's `PromptMessages`; calls safe to repeat tried again.
 */
import {
  type AskUserBroker,
  AskUserError,
  type AskUserLogger,
  ChannelError,
  createPromptMessages,
  type DeliverRequest,
  type DeliveryRef,
  type FinalizeRequest,
  isForm,
  pause,
  promptAudience,
  type RefreshRequest,
} from "@ask-user/core/channel";
import type { webApi } from "@slack/bolt";
import { conversationProblem, type Place, parseConversation } from "./conversation.ts";
import { createEarlierPosts, promptMetadata } from "./earlier-post.ts";
import { isSettledEditError, toChannelError } from "./errors.ts";
import { IDEMPOTENT_ATTEMPTS_MAX, IDEMPOTENT_RETRY_DELAY_MS } from "./limits.ts";
import { renderSummary, type SlackMessage } from "./render/mrkdwn.ts";
import { promptMessage } from "./render/prompt.ts";
import type { People } from "./users.ts";

/** Runs a call safe to repeat again while it fails as `unreachable`; any other failure ends at once. */
async function retryIdempotent<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const unreachable = error instanceof ChannelError && error.failure === "unreachable";
      if (!unreachable || attempt >= IDEMPOTENT_ATTEMPTS_MAX) throw error;
      await pause(IDEMPOTENT_RETRY_DELAY_MS * 2 ** (attempt - 1));
    }
  }
}

export type Outbound = ReturnType<typeof createOutbound>;

export function createOutbound(options: {
  name: string;
  client: webApi.WebClient;
  logger: AskUserLogger;
  people: People;
  /** The broker once started (refresh checks whether a question ended meanwhile). */
  broker(): AskUserBroker | undefined;
}) {
  const { name, client, logger, people } = options;
  const messages = createPromptMessages();
  const call = <T>(method: string, work: () => Promise<T>): Promise<T> =>
    work().catch((error: unknown) => {
      throw toChannelError(error, method);
    });
  const idempotent = <T>(method: string, work: () => Promise<T>) => retryIdempotent(() => call(method, work));
  const earlier = createEarlierPosts({ name, client, logger });

  /** Where `conversation` is posted; a conversation that is none throws `AskUserError("invalid_input")`. */
  async function where(conversation: string): Promise<Place> {
    const address = parseConversation(conversation);
    if (!address) throw new AskUserError("invalid_input", conversationProblem(conversation));
    const { base, user: direct, threadTs } = address;
    const channel = direct ? await idempotent("conversations.open", () => people.dm(base)) : base;
    return { channel, direct, threadTs };
  }

  /** Edits a message; one that is gone (or its channel) counts as done. */
  const edit = (channel: string, ts: string, message: SlackMessage): Promise<void> =>
    retryIdempotent(() =>
      client.chat.update({ channel, ts, ...message }).then(
        () => undefined,
        (error: unknown) => {
          if (!isSettledEditError(error)) throw toChannelError(error, "chat.update");
        },
      ),
    );

  /** Posts the prompt (its `ts` the message id); a re-send first adopts an earlier post (`earlier-post.ts`). */
  async function deliver(request: DeliverRequest): Promise<DeliveryRef> {
    const { record } = request;
    if (!record.target) throw new AskUserError("invalid_input", "The question has no target conversation.");
    const place = await where(record.target.conversation);
    const adopted = request.resend ? await earlier.find(place, record) : undefined;
    if (adopted !== undefined) {
      logger.warn(
        { channel: name, questionId: record.id, messageId: adopted },
        `${name}: the prompt was posted before the crash; keeping that message`,
      );
      return { messageId: adopted };
    }
    const { layout: _, ...message } = promptMessage(record, request);
    const result = await call("chat.postMessage", () =>
      client.chat.postMessage({
        channel: place.channel,
        ...message,
        ...(place.threadTs === undefined ? {} : { thread_ts: place.threadTs }),
        metadata: promptMetadata(record.id),
        unfurl_links: false,
        unfurl_media: false,
      }),
    );
    if (!result.ts) {
      throw new ChannelError(name, "unreachable", "Slack answered chat.postMessage without a message ts", {
        method: "chat.postMessage",
      });
    }
    messages.sent(`${place.channel}:${result.ts}`, record, JSON.stringify(message));
    return { messageId: result.ts };
  }

  /** Edits a delivered prompt to its summary, after the edits in flight. */
  async function finalize(request: FinalizeRequest): Promise<void> {
    const { channel } = await where(request.delivery.conversation);
    const ts = request.delivery.messageId;
    const summary = renderSummary(request.record, { channel: name, locale: request.locale });
    await messages.end(`${channel}:${ts}`, () => edit(channel, ts, summary));
  }

  /**
   * Shows a form's changed draft. If the question ended meanwhile (a Send on another instance), the
   * summary is edited in again: the last edit whatever order Slack got the two in.
   */
  async function refresh(request: RefreshRequest): Promise<void> {
    const { record, delivery } = request;
    if (!isForm(record.prompt)) return; // buttons and text show no draft
    const place = await where(delivery.conversation);
    const forName = promptAudience(record, place.direct);
    const key = `${place.channel}:${delivery.messageId}`;
    await messages.show(key, record, (latest) => {
      const { layout, ...message } = promptMessage(latest, { buttons: false, forName });
      // A form asked as text shows no draft either.
      const send = async () =>
        layout === "form" ? edit(place.channel, delivery.messageId, message) : undefined;
      return { sameness: JSON.stringify(message), send };
    });
    const latest = await options.broker()?.get(record.id);
    if (latest && latest.status !== "pending" && !messages.ended(key)) {
      const summary = renderSummary(latest, { channel: name, locale: latest.locale });
      await messages.serial(key, () => edit(place.channel, delivery.messageId, summary));
    }
  }

  return { name, client, logger, people, call, idempotent, where, edit, deliver, finalize, refresh };
}
