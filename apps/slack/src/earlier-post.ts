/**
 * No orphan prompt after a crash (issue #20; README "Several instances"): a re-send first looks for the
 * question's earlier post, by its metadata, in the recent history, and adopts it. A failed look-up posts again.
 */
import { describeError, type QuestionRecord } from "@ask-user/core/channel";
import type { Place } from "./conversation.ts";
import { toChannelError } from "./errors.ts";
import {
  EARLIER_POST_CLOCK_SKEW_MS,
  EARLIER_POST_PAGE_LIMIT,
  EARLIER_POST_PAGES_MAX,
  PROMPT_EVENT_TYPE,
} from "./limits.ts";
import type { Outbound } from "./outbound.ts";

type HistoryReader = Pick<Outbound, "name" | "client" | "logger">;

/** The metadata a prompt of `questionId` is posted with. */
export function promptMetadata(questionId: string) {
  return { event_type: PROMPT_EVENT_TYPE, event_payload: { question_id: questionId } };
}

type Listed = { ts?: string; metadata?: { event_type?: string; event_payload?: Record<string, unknown> } };

/** Slack's `ts` for an epoch-ms moment (`1712345678.000000`). */
const slackTs = (epochMs: number) => `${Math.max(0, Math.floor(epochMs / 1000))}.000000`;

/** `find(place, record)`: the `ts` of the record's earlier post; never throws. A missing scope is logged once. */
export function createEarlierPosts(out: HistoryReader) {
  let scopeLogged = false;
  return {
    async find(place: Place, record: QuestionRecord): Promise<string | undefined> {
      const { channel, threadTs: ts } = place;
      const method = ts === undefined ? "conversations.history" : "conversations.replies";
      const oldest = slackTs(record.createdAt - EARLIER_POST_CLOCK_SKEW_MS);
      const window = {
        channel,
        oldest,
        inclusive: true,
        limit: EARLIER_POST_PAGE_LIMIT,
        include_all_metadata: true,
      };
      let pages = 0;
      try {
        // The WebClient follows `next_cursor`; we stop after a few pages.
        for await (const page of out.client.paginate(method, ts === undefined ? window : { ...window, ts })) {
          const found = ((page as { messages?: Listed[] }).messages ?? []).find(
            ({ metadata }) =>
              metadata?.event_type === PROMPT_EVENT_TYPE && metadata.event_payload?.question_id === record.id,
          );
          if (found?.ts) return found.ts;
          if (++pages >= EARLIER_POST_PAGES_MAX) break;
        }
        return undefined;
      } catch (thrown) {
        const error = toChannelError(thrown, method);
        const missingScope = error.status === "missing_scope";
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
