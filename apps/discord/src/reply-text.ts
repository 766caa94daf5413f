/**
 * A Discord message's `content` → the reply text core reads (SPEC §7): exactly as the person typed it,
 * line breaks included (Shift+Enter), with a mention of the bot (`<@id>`, `<@!id>`) removed where people
 * put it to be read — at the start or the end — and trimmed. A mention inside the text is part of the answer.
 */

/** @example replyText("<@100000000000000001> EU (Recommended)\nAsia", "100000000000000001") // "EU (Recommended)\nAsia" */
export function replyText(content: string, botId: string): string {
  if (!/^\d+$/.test(botId)) return content.trim();
  const mention = `<@!?${botId}>`;
  return content
    .trim()
    .replace(new RegExp(`^(?:${mention}\\s*)+|(?:\\s*${mention})+$`, "g"), "")
    .trim();
}
