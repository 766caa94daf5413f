/**
 * Sending and editing over Discord's REST API alone (`client.rest`), with no gateway connection: what
 * the channel does on every instance, whether or not it holds the gateway connection. Channel kinds and
 * DM channel ids are cached (bounded), so a conversation costs one lookup. Every failed call is thrown
 * as core's `ChannelError` (`toChannelError`); a conversation that cannot be a target as `invalid_input`.
 */
import { createHash } from "node:crypto";
import { AskUserError, ChannelError, rememberBounded, TIMED_OUT, within } from "@ask-user/core/channel";
import {
  type APIChannel,
  type APIMessage,
  type APIUser,
  ChannelType,
  type Client,
  DiscordAPIError,
  type RESTPatchAPIChannelMessageJSONBody,
  type RESTPostAPIChannelMessageJSONBody,
  Routes,
} from "discord.js";
import { parseConversation } from "./conversation.ts";
import { toChannelError } from "./errors.ts";
import { LOGIN_TIMEOUT_MS, NONCE_MAX_CHARS } from "./limits.ts";

/** Where a conversation's messages go. */
export interface OutboundTarget {
  channelId: string;
  /** A DM (no ephemeral or DM notices needed: it is private already). */
  dm: boolean;
}

/** REST-only sending for one client. */
export interface Outbound {
  /** The channel of a conversation: a guild channel or thread, or the DM with `user:<id>`. */
  target(conversation: string): Promise<OutboundTarget>;
  /** The DM channel with a user. */
  dm(userId: string): Promise<OutboundTarget>;
  /** Posts a message; resolves with its id. */
  send(channelId: string, body: RESTPostAPIChannelMessageJSONBody): Promise<string>;
  edit(channelId: string, messageId: string, body: RESTPatchAPIChannelMessageJSONBody): Promise<void>;
  /** Adds the bot's reaction (a Unicode emoji) to a message. */
  react(channelId: string, messageId: string, emoji: string): Promise<void>;
}

const SENDABLE = new Set<number>([
  ChannelType.GuildText,
  ChannelType.GuildVoice,
  ChannelType.GuildAnnouncement,
  ChannelType.AnnouncementThread,
  ChannelType.PublicThread,
  ChannelType.PrivateThread,
  ChannelType.GuildStageVoice,
]);
const DM_TYPES = new Set<number>([ChannelType.DM, ChannelType.GroupDM]);

/** Sets `key` in a bounded cache (core's: the most recent 1000) and returns `value`. */
function remember<V>(cache: Map<string, V>, key: string, value: V): V {
  rememberBounded(cache, key, value);
  return value;
}

/**
 * The `nonce` a prompt is sent with (with `enforce_nonce`): a second send of the same question within
 * Discord's window — a repair after a crash that cut the first one off — returns the first message
 * instead of posting a duplicate.
 *
 * @example promptNonce("q_123") // 25 characters, the same for every instance
 */
export function promptNonce(questionId: string): string {
  return createHash("sha256").update(`ask-user:${questionId}`).digest("base64url").slice(0, NONCE_MAX_CHARS);
}

/** Runs one REST call; its failure is thrown as core's `ChannelError`. */
async function call<T>(method: string, run: () => Promise<unknown>): Promise<T> {
  try {
    return (await run()) as T;
  } catch (error) {
    throw toChannelError(error, method);
  }
}

/** REST-only sending on `client` (its token must be set: logged in, or `client.rest.setToken`). */
export function createOutbound(client: Client): Outbound {
  const kinds = new Map<string, number>();
  const dms = new Map<string, string>();

  const kindOf = async (channelId: string): Promise<number> => {
    const known = kinds.get(channelId) ?? client.channels.cache.get(channelId)?.type;
    if (known !== undefined) return known;
    const channel = await call<APIChannel>("GET /channels/{id}", () =>
      client.rest.get(Routes.channel(channelId)),
    );
    return remember(kinds, channelId, channel.type);
  };

  const dm = async (userId: string): Promise<OutboundTarget> => {
    const known = dms.get(userId) ?? client.users.cache.get(userId)?.dmChannel?.id;
    if (known !== undefined) return { channelId: known, dm: true };
    const channel = await call<APIChannel>("POST /users/@me/channels", () =>
      client.rest.post(Routes.userChannels(), { body: { recipient_id: userId } }),
    );
    return { channelId: remember(dms, userId, channel.id), dm: true };
  };

  return {
    dm,
    async target(conversation) {
      const target = parseConversation(conversation);
      if (!target) {
        throw new AskUserError(
          "invalid_input",
          `"${conversation}" is not a Discord conversation: use a channel id or user:<user id> for a DM.`,
        );
      }
      if (target.kind === "user") return dm(target.id);
      const kind = await kindOf(target.id);
      if (DM_TYPES.has(kind)) {
        throw new AskUserError(
          "invalid_input",
          `Discord channel ${target.id} is a DM: target its user as user:<user id> instead.`,
        );
      }
      if (!SENDABLE.has(kind))
        throw new AskUserError("invalid_input", `Discord channel ${target.id} is not a text channel.`);
      return { channelId: target.id, dm: false };
    },
    async send(channelId, body) {
      const message = await call<APIMessage>("POST /channels/{id}/messages", () =>
        client.rest.post(Routes.channelMessages(channelId), { body }),
      );
      return message.id;
    },
    async edit(channelId, messageId, body) {
      await call("PATCH /channels/{id}/messages/{id}", () =>
        client.rest.patch(Routes.channelMessage(channelId, messageId), { body }),
      );
    },
    async react(channelId, messageId, emoji) {
      await call("PUT /channels/{id}/messages/{id}/reactions/{emoji}/@me", () =>
        client.rest.put(Routes.channelMessageOwnReaction(channelId, messageId, encodeURIComponent(emoji))),
      );
    },
  };
}

/** What {@link within} gives for work that took too long. */
/** The bot user behind the token (REST only), with a readable error when Discord refuses the token. */
export async function whoAmI(client: Client): Promise<APIUser> {
  const method = "GET /users/@me";
  try {
    const me = await within(client.rest.get(Routes.user()) as Promise<APIUser>, LOGIN_TIMEOUT_MS);
    if (me !== TIMED_OUT) return me;
    const message = `Discord: no answer to ${method} within ${LOGIN_TIMEOUT_MS} ms`;
    throw new ChannelError("discord", "unreachable", message, { method });
  } catch (error) {
    if (error instanceof DiscordAPIError && error.status === 401) {
      const message = "Discord refused the bot token (401 Unauthorized): check DISCORD_BOT_TOKEN.";
      throw new ChannelError("discord", "refused", message, { method, status: 401, cause: error });
    }
    throw toChannelError(error, method);
  }
}
