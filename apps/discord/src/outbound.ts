/**
 * Sending over Discord's REST API alone, on every instance, gateway or not. Channel kinds and DM channel
 * ids are cached (bounded). Mentions are suppressed on every message; a failed call is a `ChannelError`,
 * a conversation that cannot be a target `invalid_input`.
 */
import { createHash } from "node:crypto";
import { AskUserError, ChannelError, rememberBounded, TIMED_OUT, within } from "@ask-user/core/channel";
import {
  type APIChannel,
  type APIMessage,
  type APIUser,
  ChannelType,
  type Client,
  Constants,
  DiscordAPIError,
  type RESTPatchAPIChannelMessageJSONBody,
  type RESTPostAPIChannelMessageJSONBody,
  Routes,
} from "discord.js";
import { parseConversation } from "./conversation.ts";
import { toChannelError } from "./errors.ts";
import { LOGIN_TIMEOUT_MS, NONCE_MAX_CHARS } from "./limits.ts";

/** Where a conversation's messages go; a DM needs no DM or ephemeral notices (it is private already). */
export interface OutboundTarget {
  channelId: string;
  dm: boolean;
}

export type Outbound = ReturnType<typeof createOutbound>;

const NO_MENTIONS = { parse: [] as [] };

/**
 * The `nonce` a prompt is sent with (with `enforce_nonce`): a second send of the same question within
 * Discord's window — a repair after a crash that cut the first one off — returns the first message.
 */
export function promptNonce(questionId: string): string {
  return createHash("sha256").update(`ask-user:${questionId}`).digest("base64url").slice(0, NONCE_MAX_CHARS);
}

async function call<T>(method: string, run: () => Promise<unknown>): Promise<T> {
  try {
    return (await run()) as T;
  } catch (error) {
    throw toChannelError(error, method);
  }
}

/** The value cached under `key` (bounded, core's `rememberBounded`), else `known`, else fetched. */
async function cached<V>(map: Map<string, V>, key: string, known: V | undefined, fetch: () => Promise<V>) {
  const value = map.get(key) ?? known ?? (await fetch());
  rememberBounded(map, key, value);
  return value;
}

/** `client`'s token must be set: logged in, or `client.rest.setToken`. */
export function createOutbound(client: Client) {
  const kinds = new Map<string, number>();
  const dms = new Map<string, string>();

  const dm = async (userId: string): Promise<OutboundTarget> => {
    const known = client.users.cache.get(userId)?.dmChannel?.id;
    const channelId = await cached(dms, userId, known, async () => {
      const channel = await call<APIChannel>("POST /users/@me/channels", () =>
        client.rest.post(Routes.userChannels(), { body: { recipient_id: userId } }),
      );
      return channel.id;
    });
    return { channelId, dm: true };
  };

  return {
    dm,
    async target(conversation: string): Promise<OutboundTarget> {
      const target = parseConversation(conversation);
      const refuse = (why: string) => new AskUserError("invalid_input", why);
      if (!target)
        throw refuse(
          `"${conversation}" is not a Discord conversation: use a channel id or user:<user id> for a DM.`,
        );
      if (target.kind === "user") return dm(target.id);
      const kind = await cached(kinds, target.id, client.channels.cache.get(target.id)?.type, async () => {
        const channel = await call<APIChannel>("GET /channels/{id}", () =>
          client.rest.get(Routes.channel(target.id)),
        );
        return channel.type;
      });
      if (kind === ChannelType.DM || kind === ChannelType.GroupDM)
        throw refuse(`Discord channel ${target.id} is a DM: target its user as user:<user id> instead.`);
      if (!Constants.GuildTextBasedChannelTypes.includes(kind))
        throw refuse(`Discord channel ${target.id} is not a text channel.`);
      return { channelId: target.id, dm: false };
    },
    async send(channelId: string, body: RESTPostAPIChannelMessageJSONBody): Promise<string> {
      const message = await call<APIMessage>("POST /channels/{id}/messages", () =>
        client.rest.post(Routes.channelMessages(channelId), {
          body: { allowed_mentions: NO_MENTIONS, ...body },
        }),
      );
      return message.id;
    },
    async edit(
      channelId: string,
      messageId: string,
      body: RESTPatchAPIChannelMessageJSONBody,
    ): Promise<void> {
      await call("PATCH /channels/{id}/messages/{id}", () =>
        client.rest.patch(Routes.channelMessage(channelId, messageId), {
          body: { allowed_mentions: NO_MENTIONS, ...body },
        }),
      );
    },
    async react(channelId: string, messageId: string, emoji: string): Promise<void> {
      await call("PUT /channels/{id}/messages/{id}/reactions/{emoji}/@me", () =>
        client.rest.put(Routes.channelMessageOwnReaction(channelId, messageId, encodeURIComponent(emoji))),
      );
    },
  };
}

/** The bot user behind the token (REST only), with a readable error when Discord refuses the token. */
export async function whoAmI(client: Client): Promise<APIUser> {
  const method = "GET /users/@me";
  try {
    const me = await within(client.rest.get(Routes.user()) as Promise<APIUser>, LOGIN_TIMEOUT_MS);
    if (me !== TIMED_OUT) return me;
    const message = `Discord: no answer to ${method} within ${LOGIN_TIMEOUT_MS} ms`;
    throw new ChannelError("discord", "unreachable", message, { method });
  } catch (error) {
    if (!(error instanceof DiscordAPIError && error.status === 401)) throw toChannelError(error, method);
    const message = "Discord refused the bot token (401 Unauthorized): check DISCORD_BOT_TOKEN.";
    throw new ChannelError("discord", "refused", message, { method, status: 401, cause: error });
  }
}
