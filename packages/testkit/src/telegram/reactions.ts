/**
 * Message reactions: `setMessageReaction` as the Bot API runs it for a bot, and the chats' available
 * reactions (set by their admins). Source: the Bot API reference (`setMessageReaction`, `ReactionTypeEmoji`).
 */
import { BOT_REACTIONS_MAX } from "./limits.ts";
import { badRequest, chatId, int, isObject, optJson, type Params } from "./params.ts";
import { findMessage, notify, type State } from "./state.ts";

/** The emoji a `ReactionTypeEmoji` may carry (the Bot API's list). */
export const REACTION_EMOJI: ReadonlySet<string> = new Set(
  (
    "👍 👎 ❤ 🔥 🥰 👏 😁 🤔 🤯 😱 🤬 😢 🎉 🤩 🤮 💩 🙏 👌 🕊 🤡 🥱 🥴 😍 🐳 ❤‍🔥 🌚 🌭 💯 🤣 ⚡ 🍌 🏆 💔 🤨 😐 🍓 🍾 💋 🖕 " +
    "😈 😴 😭 🤓 👻 👨‍💻 👀 🎃 🙈 😇 😨 🤝 ✍ 🤗 🫡 🎅 🎄 ☃ 💅 🤪 🗿 🆒 💘 🙉 🦄 😘 💊 🙊 😎 👾 🤷‍♂ 🤷 🤷‍♀ 😡"
  ).split(" "),
);

/**
 * `setMessageReaction`: sets the bot's reaction on a message (an empty or missing list removes it).
 * Like Telegram: a message that is not there → "message to react not found"; an emoji outside the Bot
 * API's list, outside the chat's available reactions, a custom emoji not on the message or a paid
 * reaction → `REACTION_INVALID`; more than one (bots react as non-premium users) → `REACTIONS_TOO_MANY`.
 */
export function setMessageReaction(state: State, params: Params): boolean {
  const chat = chatId(params);
  const stored = findMessage(state, chat, int(params, "message_id"));
  if (!stored) throw badRequest("message to react not found");
  const given = optJson(params, "reaction", "reaction JSON array") ?? [];
  if (!Array.isArray(given)) throw badRequest("can't parse reaction JSON array");
  const available = state.availableReactions.get(chat);
  const emoji = given.map((reaction) => {
    const ok =
      isObject(reaction) &&
      reaction.type === "emoji" &&
      typeof reaction.emoji === "string" &&
      REACTION_EMOJI.has(reaction.emoji) &&
      (available === undefined || available.includes(reaction.emoji));
    if (!ok) throw badRequest("REACTION_INVALID");
    return reaction.emoji as string;
  });
  if (emoji.length > BOT_REACTIONS_MAX) throw badRequest("REACTIONS_TOO_MANY");
  if (emoji.length === 0) delete stored.reactions;
  else stored.reactions = emoji;
  notify(state);
  return true;
}
