/**
 * A Discord message's `content` → the reply text core reads (SPEC §7): exactly as the person typed it,
 * line breaks included (Shift+Enter), with a mention of the bot removed where people put it to be read —
 * at the start or the end — and trimmed. A mention of the bot inside the text is part of the answer.
 */

/**
 * The reply text of a message: `content` with a leading or trailing mention of the bot (`<@id>` or the
 * older nickname form `<@!id>`) removed, trimmed; line breaks and everything else kept as typed.
 *
 * @example replyText("<@100000000000000001> EU (Recommended)\nAsia", "100000000000000001") // "EU (Recommended)\nAsia"
 */
export function replyText(content: string, botId: string): string {
  let text = content.trim();
  if (!/^\d+$/.test(botId)) return text;
  const leading = new RegExp(`^<@!?${botId}>`);
  const trailing = new RegExp(`<@!?${botId}>$`);
  for (let cut = true; cut; ) {
    const before = text;
    text = text.replace(leading, "").replace(trailing, "").trim();
    cut = text !== before;
  }
  return text;
}
