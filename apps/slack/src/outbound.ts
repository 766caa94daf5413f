/**
 * What the channel's outbound side (prompts, notices) shares: the WebClient, where a conversation is
 * posted, and calls whose failures reach core as `ChannelError` — posts once, edits and other calls that
 * are safe to repeat with `retryIdempotent` (see `retry.ts`).
 */
import { type AskUserBroker, AskUserError, type AskUserLogger } from "@ask-user/core";
import type { webApi } from "@slack/bolt";
import { conversationProblem, parseConversation } from "./conversation.ts";
import { isSettledEditError, toChannelError } from "./errors.ts";
import type { SlackMessage } from "./render.ts";
import { retryIdempotent } from "./retry.ts";
import type { People } from "./users.ts";

/** Where to post for a conversation: the channel (a DM opened for user ids) and the thread. */
export interface Place {
  channel: string;
  threadTs?: string;
  /** The conversation is a person's direct messages with the app. */
  direct: boolean;
}

/** The outbound side's dependencies and helpers. */
export interface Outbound {
  /** The channel name in targets (`slack`). */
  name: string;
  client: webApi.WebClient;
  logger: AskUserLogger;
  /** The broker once `attach` gave it (refresh checks whether a question ended meanwhile). */
  broker(): AskUserBroker | undefined;
  /** Where `conversation` is posted; a conversation that is none throws `AskUserError("invalid_input")`. */
  where(conversation: string): Promise<Place>;
  /** Runs a call once; a failure is a `ChannelError` for `method`. */
  call<T>(method: string, work: () => Promise<T>): Promise<T>;
  /** Runs a call that is safe to repeat, again while Slack cannot be reached. */
  idempotent<T>(method: string, work: () => Promise<T>): Promise<T>;
  /** Edits a message; one that is gone (or its channel) counts as done. */
  edit(channel: string, ts: string, message: SlackMessage): Promise<void>;
}

/** Creates the outbound helpers over a WebClient with the bot token. */
export function createOutbound(options: {
  name: string;
  client: webApi.WebClient;
  logger: AskUserLogger;
  people: People;
  broker(): AskUserBroker | undefined;
}): Outbound {
  const { client } = options;
  const call = async <T>(method: string, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw toChannelError(error, method);
    }
  };
  const idempotent = <T>(method: string, work: () => Promise<T>) => retryIdempotent(() => call(method, work));
  return {
    name: options.name,
    client,
    logger: options.logger,
    broker: options.broker,
    call,
    idempotent,
    async where(conversation) {
      const address = parseConversation(conversation);
      if (!address) throw new AskUserError("invalid_input", conversationProblem(conversation));
      const channel = address.user
        ? await idempotent("conversations.open", () => options.people.dm(address.base))
        : address.base;
      const place: Place = { channel, direct: address.user };
      if (address.threadTs !== undefined) place.threadTs = address.threadTs;
      return place;
    },
    async edit(channel, ts, message) {
      await retryIdempotent(async () => {
        try {
          const blocks = message.blocks ? { blocks: message.blocks } : {};
          await client.chat.update({ channel, ts, text: message.text, ...blocks });
        } catch (error) {
          if (!isSettledEditError(error)) throw toChannelError(error, "chat.update");
        }
      });
    },
  };
}
