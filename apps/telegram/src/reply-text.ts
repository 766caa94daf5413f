/**
 * A Telegram message → the reply text core reads (SPEC §7): as typed, line breaks kept, with a mention
 * of the bot itself at the start or the end taken off. Pure.
 */
import type { Message } from "grammy/types";

type ReplyMessage = Pick<Message, "text" | "entities">;

/** Spans (offset, end) of the message's `mention` entities of the bot. */
function botMentions(message: ReplyMessage, username: string): Array<[number, number]> {
  const text = message.text ?? "";
  const own = `@${username}`.toLowerCase();
  return (message.entities ?? [])
    .filter((e) => e.type === "mention" && text.slice(e.offset, e.offset + e.length).toLowerCase() === own)
    .map((e) => [e.offset, e.offset + e.length]);
}

/**
 * The text to hand to core, or `undefined` when it is not for ask-user: a command other than `/skip`
 * (or `/skip@<this bot>`), or nothing left but the mention. A mention of the bot (any case) leading or
 * trailing the text is taken off, with the spaces and a `,`/`:` after a leading one; one in the middle stays.
 */
export function replyText(message: ReplyMessage, botUsername: string): string | undefined {
  const text = message.text;
  if (text === undefined) return undefined;
  const mentions = botMentions(message, botUsername);
  const lead = text.length - text.trimStart().length;
  const trail = text.length - text.trimEnd().length;
  let start = 0;
  let end = text.length;
  const leading = mentions.find(([offset]) => offset === lead);
  if (leading) start = leading[1] + (/^[ \t]*[,:]?\s*/.exec(text.slice(leading[1]))?.[0].length ?? 0);
  const trailing = mentions.find(([, stop]) => stop === text.length - trail);
  if (trailing && trailing[0] >= start) end = trailing[0];
  const command = message.entities?.find((e) => e.type === "bot_command" && e.offset === start);
  if (command) {
    const commandEnd = command.offset + command.length;
    const [name = "", bot] = text.slice(start + 1, commandEnd).split("@");
    const forUs = bot === undefined || bot.toLowerCase() === botUsername.toLowerCase();
    // Commands belong to the host bot, except /skip (or /skip@this_bot).
    if (!forUs || name.toLowerCase() !== "skip") return undefined;
    return `/${name}${text.slice(commandEnd, Math.max(end, commandEnd))}`.trim();
  }
  if (start === 0 && end === text.length) return text;
  const rest = text.slice(start, end).trim();
  return rest === "" ? undefined : rest;
}
