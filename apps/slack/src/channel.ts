/** The Slack channel: core's `Channel` port over Bolt's WebClient, mounted on a Bolt `App`. */
import {
  type AskUserBroker,
  AskUserError,
  type AskUserLogger,
  type Channel,
  ChannelError,
  type Coordination,
  consoleLogger,
  createMemoryCoordination,
} from "@ask-user/core";
import type { App, webApi } from "@slack/bolt";
import { conversationProblem, parseConversation } from "./conversation.ts";
import { firstTime } from "./dedupe.ts";
import { isSettledEditError, toChannelError } from "./errors.ts";
import { createInbound } from "./inbound.ts";
import { ACTIONS_ELEMENTS_MAX, BUTTON_TEXT_MAX_CHARS } from "./limits.ts";
import { renderNotice, renderPrivateNotice, renderQuestion, renderSummary, renderText } from "./render.ts";
import { createPeople, mention } from "./users.ts";

/** Options of {@link createSlackChannel}. */
export interface SlackChannelOptions {
  /** The host's Bolt app (HTTP or Socket Mode). Its own listeners keep working. */
  app: App;
  /** The channel name used in targets (`{ channel: "slack", conversation }`). Default `"slack"`. */
  name?: string;
  /** The WebClient with the bot token. Default `app.client` (a single-workspace app with `token`). */
  client?: webApi.WebClient;
  logger?: AskUserLogger;
  /**
   * Where "handled once" is recorded: pass the store when several processes share it (every store is a
   * `Coordination`), so that an event or interaction delivered twice — to any of them — is handled once.
   * Default: this process only.
   */
  coordination?: Coordination;
  /** How this app receives Slack's requests (`capabilities.ingress`). Default `"connection"` (Socket Mode). */
  ingress?: "connection" | "webhook";
}

/** A Slack channel, in two phases: the `channel` first, its inbound side once the broker exists. */
export interface SlackChannel {
  /** Give this to `createAskUser({ channels })`. */
  channel: Channel;
  /**
   * Mounts the inbound side on the app as one global middleware (`app.use`): taps on our buttons, our
   * modal's submissions and messages that answer a question go to `broker`; everything else goes on to
   * the app's listeners. Call it once, before `app.start()`.
   */
  attach(broker: AskUserBroker): void;
}

/** Where to post for a conversation: the channel (a DM opened for user ids) and the thread. */
async function placeOf(
  conversation: string,
  dm: (userId: string) => Promise<string>,
): Promise<{ channel: string; threadTs?: string }> {
  const address = parseConversation(conversation);
  if (!address) throw new AskUserError("invalid_input", conversationProblem(conversation));
  let channel = address.base;
  if (address.user) {
    try {
      channel = await dm(address.base);
    } catch (error) {
      throw toChannelError(error, "conversations.open");
    }
  }
  return address.threadTs === undefined ? { channel } : { channel, threadTs: address.threadTs };
}

/**
 * Creates the Slack channel on `app`. Outbound (deliver, finalize, notify) works at once; inbound starts
 * with `attach(broker)`. Platform failures reach core as `ChannelError` (see `errors.ts`).
 *
 * @example
 * ```ts
 * const app = new App({ token: process.env.SLACK_BOT_TOKEN, appToken: process.env.SLACK_APP_TOKEN, socketMode: true });
 * const slack = createSlackChannel({ app });
 * const askUser = createAskUser({ store: createMemoryStore(), channels: [slack.channel] });
 * slack.attach(askUser);
 * await app.start();
 * const result = await askUser.ask(input, { target: { channel: "slack", conversation: "C0123ABCD" } });
 * ```
 */
export function createSlackChannel(options: SlackChannelOptions): SlackChannel {
  const name = options.name ?? "slack";
  const client = options.client ?? options.app.client;
  const logger = options.logger ?? consoleLogger;
  const people = createPeople(client);
  const where = (conversation: string) => placeOf(conversation, (userId) => people.dm(userId));

  const call = async <T>(method: string, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw toChannelError(error, method);
    }
  };

  const channel: Channel = {
    name,
    capabilities: {
      buttons: true,
      edit: true,
      privateNotices: true,
      maxButtons: ACTIONS_ELEMENTS_MAX,
      maxButtonLabel: BUTTON_TEXT_MAX_CHARS,
      ingress: options.ingress ?? "connection",
    },
    isDirect: (conversation) => parseConversation(conversation)?.user === true,
    async deliver({ record, locale, text, buttons }) {
      if (!record.target) throw new AskUserError("invalid_input", "The question has no target conversation.");
      const { channel: id, threadTs } = await where(record.target.conversation);
      const message = buttons ? renderQuestion(record, locale) : renderText(text, record, locale);
      const result = await call("chat.postMessage", () =>
        client.chat.postMessage({
          channel: id,
          text: message.text,
          ...(message.blocks ? { blocks: message.blocks } : {}),
          ...(threadTs === undefined ? {} : { thread_ts: threadTs }),
          unfurl_links: false,
          unfurl_media: false,
        }),
      );
      if (!result.ts) {
        throw new ChannelError(name, "unreachable", "Slack answered chat.postMessage without a message ts", {
          method: "chat.postMessage",
        });
      }
      return { messageId: result.ts };
    },
    async finalize({ record, delivery, summary }) {
      const { channel: id } = await where(delivery.conversation);
      // The attribution is kept as a mention when it is one (`<@U…>`, shown as the person's name).
      const by = record.resolvedBy;
      const named =
        by?.channel === name && by.displayName === mention(by.userId) ? by.displayName : undefined;
      try {
        await client.chat.update({ channel: id, ts: delivery.messageId, ...renderSummary(summary, named) });
      } catch (error) {
        if (isSettledEditError(error)) return;
        throw toChannelError(error, "chat.update");
      }
    },
    // SPEC §5: Slack shows `<@U…>` as the person's name; it is only used in private notices (refusals).
    displayName: async (userId) => mention(userId),
    async notify({ conversation, text, userId, private: only, replyTo }) {
      const { channel: id, threadTs } = await where(conversation);
      const thread = replyTo ?? threadTs;
      const threading = thread === undefined ? {} : { thread_ts: thread };
      if (only && userId !== undefined) {
        // Nobody can reply to an ephemeral message: nothing to route by.
        const { text: ephemeral } = renderPrivateNotice(text);
        await call("chat.postEphemeral", () =>
          client.chat.postEphemeral({ channel: id, user: userId, text: ephemeral, ...threading }),
        );
        return undefined;
      }
      const body = renderNotice(text);
      const result = await call("chat.postMessage", () =>
        client.chat.postMessage({
          channel: id,
          text: body.text,
          ...threading,
          unfurl_links: false,
          unfurl_media: false,
        }),
      );
      // In Slack one replies to a thread, not to a message in it: replies to this notice carry the
      // thread's root as their `thread_ts`, so that is the id they route by (and the broker records).
      const root = thread ?? result.ts;
      return root === undefined ? undefined : { messageId: root };
    },
  };

  const coordination = options.coordination ?? createMemoryCoordination();
  let attached = false;
  const attach = (broker: AskUserBroker) => {
    if (attached)
      throw new AskUserError("invalid_input", "createSlackChannel: attach(broker) was called twice.");
    attached = true;
    const once = (key: string) => firstTime(coordination, key, logger, name);
    options.app.use(createInbound({ name, broker, client, people, logger, once }));
  };
  return { channel, attach };
}
