/** The Slack channel: core's `Channel` port over Bolt's WebClient, mounted on a Bolt `App`. */
import {
  type AskUserBroker,
  type AskUserLogger,
  type Channel,
  type Coordination,
  consoleLogger,
  createMemoryCoordination,
} from "@ask-user/core";
import type { App, webApi } from "@slack/bolt";
import { createInbound } from "./inbound.ts";
import { renderNotice, renderPrivateNotice, renderQuestion, renderSummary, renderText } from "./render.ts";
import { parseAddress } from "./target.ts";
import { createPeople, type People } from "./users.ts";

/** Options of {@link createSlackChannel}. */
export interface SlackChannelOptions {
  /** The host's Bolt app (HTTP or Socket Mode). Its own listeners keep working. */
  app: App;
  /** The broker, created after its channels: a getter. */
  broker: () => AskUserBroker;
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
}

/** A mounted Slack channel. */
export interface SlackChannel {
  /** Give this to `createAskUser({ channels })`. */
  channel: Channel;
  /** Locale and display names (`users.info`), and DM channels (`conversations.open`), cached. */
  people: People;
}

/** Slack's error code of a failed Web API call (`message_not_found`), if it is one. */
function platformError(error: unknown): string | undefined {
  const data = (error as { data?: { error?: unknown } } | undefined)?.data;
  return typeof data?.error === "string" ? data.error : undefined;
}

const GONE = new Set(["message_not_found", "channel_not_found", "is_archived"]);

/**
 * Creates the Slack channel and mounts its listeners on `app` (as global middleware: our taps, modal
 * submissions and answering messages are handled; everything else goes on to the app's listeners).
 *
 * @example
 * ```ts
 * const app = new App({ token: process.env.SLACK_BOT_TOKEN, appToken: process.env.SLACK_APP_TOKEN, socketMode: true });
 * const slack = createSlackChannel({ app, broker: () => askUser });
 * const askUser = createAskUser({ store: createMemoryStore(), channels: [slack.channel] });
 * await app.start();
 * const result = await askUser.ask(input, { target: { channel: "slack", conversation: "C0123ABCD" } });
 * ```
 */
export function createSlackChannel(options: SlackChannelOptions): SlackChannel {
  const name = options.name ?? "slack";
  const client = options.client ?? options.app.client;
  const logger = options.logger ?? consoleLogger;
  const people = createPeople(client);

  /** Where to post for a conversation address: the channel (a DM opened for user ids) and thread. */
  const where = async (conversation: string): Promise<{ channel: string; threadTs?: string }> => {
    const address = parseAddress(conversation);
    const channel = address.user ? await people.dm(address.base) : address.base;
    return address.threadTs === undefined ? { channel } : { channel, threadTs: address.threadTs };
  };

  const channel: Channel = {
    name,
    capabilities: { buttons: true, edit: true, privateNotices: true },
    isDirect(conversation) {
      try {
        return parseAddress(conversation).user; // a user id: the app's direct messages with them
      } catch {
        return false;
      }
    },
    async deliver({ record, locale, text, buttons }) {
      if (!record.target) throw new Error("The question has no target conversation.");
      const { channel: id, threadTs } = await where(record.target.conversation);
      const message = buttons ? renderQuestion(record, locale) : renderText(text, record, locale);
      const result = await client.chat.postMessage({
        channel: id,
        text: message.text,
        ...(message.blocks ? { blocks: message.blocks } : {}),
        ...(threadTs === undefined ? {} : { thread_ts: threadTs }),
        unfurl_links: false,
        unfurl_media: false,
      });
      if (!result.ts) throw new Error("chat.postMessage returned no message ts");
      return { messageId: result.ts };
    },
    async finalize({ delivery, summary }) {
      const { channel: id } = await where(delivery.conversation);
      try {
        await client.chat.update({ channel: id, ts: delivery.messageId, ...renderSummary(summary) });
      } catch (error) {
        if (GONE.has(platformError(error) ?? "")) return;
        throw error;
      }
    },
    // SPEC §5: Slack shows `<@U…>` as the person's name; it is only used in private notices (refusals).
    displayName: async (userId) => `<@${userId}>`,
    async notify({ conversation, text, userId, private: only, replyTo }) {
      const { channel: id, threadTs } = await where(conversation);
      const thread = replyTo ?? threadTs;
      const threading = thread === undefined ? {} : { thread_ts: thread };
      if (only && userId !== undefined) {
        // Nobody can reply to an ephemeral message: nothing to route by.
        const { text: ephemeral } = renderPrivateNotice(text);
        await client.chat.postEphemeral({ channel: id, user: userId, text: ephemeral, ...threading });
        return undefined;
      }
      const body = renderNotice(text);
      const result = await client.chat.postMessage({
        channel: id,
        text: body.text,
        ...threading,
        unfurl_links: false,
        unfurl_media: false,
      });
      // In Slack one replies to a thread, not to a message in it: replies to this notice carry the
      // thread's root as their `thread_ts`, so that is the id they route by (and the broker records).
      const root = thread ?? result.ts;
      return root === undefined ? undefined : { messageId: root };
    },
  };

  const coordination = options.coordination ?? createMemoryCoordination();
  options.app.use(createInbound({ name, broker: options.broker, client, people, logger, coordination }));
  return { channel, people };
}
