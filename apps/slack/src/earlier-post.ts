/**
 * No orphan prompt after a crash: every prompt is posted with message metadata naming its question, and
 * a repair's re-send (`DeliverRequest.resend`) first looks for that earlier post in the conversation's
 * recent history (`conversations.history`, or `conversations.replies` in a thread) and adopts it instead
 * of posting a second prompt. Bounded: messages since the question was stored, a few pages at most.
 * Reading history needs `channels:history`, `groups:history`, `im:history` (and `mpim:history`); without
 * them (`missing_scope`), or when the look-up fails otherwise, the prompt is posted again, and logged.
 */
import { type AskUserLogger, ChannelError, describeError, type QuestionRecord } from "@ask-user/core/channel";
import type { webApi } from "@slack/bolt";
import type { Place } from "./conversation.ts";
import {
  EARLIER_POST_CLOCK_SKEW_MS,
  EARLIER_POST_PAGE_LIMIT,
  EARLIER_POST_PAGES_MAX,
  PROMPT_EVENT_TYPE,
} from "./limits.ts";

/** What the look-up needs of the outbound side (`outbound.ts`). */
interface HistoryReader {
  name: string;
  client: webApi.WebClient;
  logger: AskUserLogger;
  call<T>(method: string, work: () => Promise<T>): Promise<T>;
}

/** The metadata a prompt of `questionId` is posted with. */
export function promptMetadata(questionId: string) {
  return { event_type: PROMPT_EVENT_TYPE, event_payload: { question_id: questionId } };
}

/** A listed message's metadata as the history methods give it. */
interface Listed {
  ts?: string;
  metadata?: { event_type?: string; event_payload?: Record<string, unknown> };
}

const isPromptOf = (id: string) => (message: Listed) =>
  message.metadata?.event_type === PROMPT_EVENT_TYPE && message.metadata.event_payload?.question_id === id;

/** Finds a question's earlier prompt post; see the file's comment. */
export interface EarlierPosts {
  /** The `ts` of `record`'s prompt posted before at `place`, if Slack lists it; never throws. */
  find(place: Place, record: QuestionRecord): Promise<string | undefined>;
}

/** Slack's `ts` for an epoch-ms moment (`1712345678.000000`). */
const slackTs = (epochMs: number) => `${Math.max(0, Math.floor(epochMs / 1000))}.000000`;

/** Creates the finder; a missing scope is logged once per channel, other failures each time. */
export function createEarlierPosts(out: HistoryReader): EarlierPosts {
  let scopeLogged = false;
  const page = async (place: Place, oldest: string, cursor: string | undefined) => {
    const window = {
      channel: place.channel,
      oldest,
      inclusive: true,
      limit: EARLIER_POST_PAGE_LIMIT,
      include_all_metadata: true,
      ...(cursor === undefined ? {} : { cursor }),
    };
    const answer: webApi.ConversationsHistoryResponse | webApi.ConversationsRepliesResponse =
      place.threadTs === undefined
        ? await out.call("conversations.history", () => out.client.conversations.history(window))
        : await out.call("conversations.replies", () =>
            out.client.conversations.replies({ ...window, ts: place.threadTs ?? "" }),
          );
    const next = answer.response_metadata?.next_cursor;
    return {
      messages: (answer.messages ?? []) as Listed[],
      next: answer.has_more && next ? next : undefined,
    };
  };

  return {
    async find(place, record) {
      const oldest = slackTs(record.createdAt - EARLIER_POST_CLOCK_SKEW_MS);
      let cursor: string | undefined;
      try {
        for (let pages = 0; pages < EARLIER_POST_PAGES_MAX; pages++) {
          const { messages, next } = await page(place, oldest, cursor);
          const found = messages.find(isPromptOf(record.id))?.ts;
          if (found) return found;
          if (next === undefined) return undefined;
          cursor = next;
        }
        return undefined;
      } catch (error) {
        const missingScope = error instanceof ChannelError && error.status === "missing_scope";
        if (!missingScope || !scopeLogged) {
          out.logger.warn(
            { channel: out.name, questionId: record.id, err: describeError(error) },
            missingScope
              ? `${out.name}: cannot read the conversation's history (missing scope channels:history, groups:history or im:history), so a prompt re-sent after a crash may be posted twice; add the scopes to avoid it`
              : `${out.name}: looking for a prompt posted before the crash failed; posting it again`,
          );
        }
        if (missingScope) scopeLogged = true;
        return undefined;
      }
    },
  };
}
