/**
 * A Slack message event's `text` → the reply text core reads (SPEC §7: as the person typed it). Slack
 * sends it in its own markup (`&<>` escaped, emoji as shortcodes, mentions, channels and links as
 * `<…>` tokens); this undoes it and keeps line breaks.
 */
import { emojiFor } from "./emoji.ts";

/** A `<…>` token, an emoji shortcode (with Slack's skin-tone suffix), or one of Slack's three escapes. */
const TOKEN = /<([^<>]*)>|:([a-z0-9_+'-]+):(?::skin-tone-([2-6]):)?|&(amp|lt|gt);/g;

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">" };

const decodeEntities = (text: string) =>
  text.replace(/&(amp|lt|gt);/g, (_, name: string) => ENTITIES[name] ?? "");
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** What a link reads as: its label when that is the address as typed (Slack links `x.dev` as `<http://x.dev|x.dev>`). */
function link(target: string, label: string | undefined): string {
  if (label === undefined || label === "") return target;
  const bare = target.replace(/^(?:https?:\/\/|mailto:)/i, "");
  if (label === target || label === bare || `${label}/` === bare) return label;
  return `${label} (${target})`;
}

/** One `<…>` token (entities already decoded) as the person typed it. */
function token(inner: string): string {
  const bar = inner.indexOf("|");
  const target = bar === -1 ? inner : inner.slice(0, bar);
  const label = bar === -1 ? undefined : inner.slice(bar + 1);
  if (target.startsWith("@")) return label ? `@${label.replace(/^@/, "")}` : `<${inner}>`;
  if (target.startsWith("#")) return label ? `#${label}` : `<${inner}>`;
  if (target.startsWith("!")) {
    if (label) return label; // <!date^…|fallback>, <!subteam^S1|@team>
    return `@${target.slice(1).split("^")[0] ?? ""}`; // <!here>, <!channel>, <!everyone>
  }
  return link(target, label);
}

/** A message `text` as the person typed it (README "Text as typed"); entities decoded last, so `&lt;@U1&gt;` stays text. */
export function replyText(text: string, botUserId?: string): string {
  let rest = text;
  if (botUserId) {
    const bot = `<@${escapeRegExp(botUserId)}(?:\\|[^<>]*)?>`;
    rest = rest.replace(new RegExp(`^\\s*${bot}[,:]?\\s*`), "").replace(new RegExp(`\\s*${bot}\\s*$`), "");
  }
  return rest.replace(
    TOKEN,
    (whole, inner: string | undefined, name: string | undefined, tone: string | undefined, entity) => {
      if (inner !== undefined) return token(decodeEntities(inner));
      if (name !== undefined) return emojiFor(name, tone === undefined ? undefined : Number(tone)) ?? whole;
      return ENTITIES[String(entity)] ?? whole;
    },
  );
}
