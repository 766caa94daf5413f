/** How the channel names people (SPEC §5: the user's name, never a bare numeric id). */
import type { Api } from "grammy";
import type { User } from "grammy/types";
import { parseConversation } from "./conversation.ts";
import { isRefusal, toChannelError } from "./errors.ts";

/**
 * `@username`, else their name (`Ada Lovelace`), of a `User` or a private `Chat`.
 *
 * @example displayNameOf({ first_name: "Ada", username: "ada" }) // "@ada"
 */
export function displayNameOf(person: Pick<User, "first_name" | "last_name" | "username">): string {
  if (person.username) return `@${person.username}`;
  return [person.first_name, person.last_name].filter(Boolean).join(" ");
}

/**
 * The name of user `userId`, without notifying them: `getChat`, else in a group `getChatMember`;
 * `undefined` when Telegram refuses both. Other failures throw a `ChannelError` (core logs it).
 */
export async function lookUpName(
  api: Api,
  userId: string,
  conversation: string | undefined,
): Promise<string | undefined> {
  const id = Number(userId);
  if (!/^\d+$/.test(userId) || !Number.isSafeInteger(id)) return undefined;
  try {
    const chat = await api.getChat(id);
    if (chat.type === "private") return displayNameOf(chat) || undefined;
  } catch (error) {
    if (!isRefusal(error)) throw toChannelError(error, "getChat");
    // Not a chat the bot knows: try the group the question is in.
  }
  const group = conversation === undefined ? undefined : parseConversation(conversation);
  if (!group || group.chatId > 0) return undefined;
  try {
    const member = await api.getChatMember(group.chatId, id);
    return displayNameOf(member.user) || undefined;
  } catch (error) {
    if (isRefusal(error)) return undefined;
    throw toChannelError(error, "getChatMember");
  }
}
