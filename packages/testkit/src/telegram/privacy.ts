/**
 * Privacy mode, Telegram's default for bots: in a group or supergroup the bot receives a person's
 * message only when it replies to one of the bot's messages, carries a command (`/start`, or
 * `/start@this_bot`; not `/start@other_bot`) or mentions the bot (`@this_bot`). Private chats get
 * everything, and so does a bot whose privacy mode is off.
 */
import type { State } from "./state.ts";
import type { TgMessage } from "./types.ts";

/** Whether the bot would receive this user message. */
export function reachesBot(state: State, message: TgMessage): boolean {
  if (!state.privacyMode || message.chat.type === "private") return true;
  if (message.reply_to_message?.from.id === state.bot.id) return true;
  const username = (state.bot.username ?? "").toLowerCase();
  return (message.entities ?? []).some((entity) => {
    const part = message.text.slice(entity.offset, entity.offset + entity.length);
    if (entity.type === "mention") return part.slice(1).toLowerCase() === username;
    if (entity.type !== "bot_command") return false;
    const at = part.indexOf("@");
    return at < 0 || part.slice(at + 1).toLowerCase() === username;
  });
}
