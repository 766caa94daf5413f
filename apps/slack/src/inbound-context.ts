/**
 * What the inbound handlers (taps, modal submissions, messages) share: their dependencies, who a person
 * is, the conversation name of an event, and notices only one person sees.
 */
import type { AskUserBroker, AskUserLogger } from "@ask-user/core/channel";
import type { RespondFn, webApi } from "@slack/bolt";
import { formatConversation } from "./conversation.ts";
import { renderPrivateNotice } from "./render/mrkdwn.ts";
import { mention, type People } from "./users.ts";

/** What the inbound side needs. */
export interface InboundDeps {
  /** The channel name in targets (`slack`). */
  name: string;
  broker: AskUserBroker;
  client: webApi.WebClient;
  people: People;
  logger: AskUserLogger;
  /**
   * True the first time any instance sees `key` (the store's coordination, see `dedupe.ts`); true as
   * well when the store cannot say.
   */
  once(key: string): Promise<boolean>;
}

/** Where a private notice goes: a channel (or DM), one user, optionally a thread. */
export interface PrivateAddress {
  channel: string;
  user: string;
  threadTs?: string;
}

/** The conversation name of an event: DMs by the user's id, threads as `<conversation>:<thread_ts>`. */
export function conversationOf(channelId: string, userId: string, threadTs?: string): string {
  const base = channelId.startsWith("D") ? userId : channelId;
  return formatConversation(threadTs === undefined ? { base } : { base, threadTs });
}

/**
 * A person as the broker names them: `@display name` and their locale from `users.info` (waiting at most
 * `budgetMs`), or `<@U…>` — which Slack shows as their name — when the lookup gave no name.
 */
export async function person(
  deps: InboundDeps,
  userId: string,
  budgetMs?: number,
): Promise<{ displayName: string; locale?: string }> {
  const found = await deps.people.lookup(userId, budgetMs);
  const displayName = found.displayName ?? mention(userId);
  return found.locale === undefined ? { displayName } : { displayName, locale: found.locale };
}

/** Shows `text` to one user only: through the interaction's `response_url`, else `chat.postEphemeral`. */
export async function tellPrivately(
  deps: InboundDeps,
  where: PrivateAddress,
  text: string,
  respond?: RespondFn,
): Promise<void> {
  const body = renderPrivateNotice(text);
  if (respond) {
    await respond({ response_type: "ephemeral", replace_original: false, text: body.text });
    return;
  }
  await deps.client.chat.postEphemeral({
    channel: where.channel,
    user: where.user,
    text: body.text,
    ...(where.threadTs === undefined ? {} : { thread_ts: where.threadTs }),
  });
}
