/**
 * Text as Discord message content: escaping agent text (data, never markup), lengths as Discord counts
 * them, shortening with "…", and the few pieces of markup the channel writes itself — a person's
 * `<@id>` and timestamps `<t:…>`. Pure: no client, no I/O.
 */
import { truncateGraphemes } from "@ask-user/core/channel";

const ELLIPSIS = "…";
const GRAPHEMES = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** A Discord user mention, `<@id>` (or the older `<@!id>`). */
export const MENTION = /^<@!?\d{15,21}>$/;

/** A Discord timestamp, `<t:seconds:style>`. */
export const TIMESTAMP = /^<t:-?\d+:[tTdDfFR]>$/;

/** Within this distance from now a time is shown as a time of day (`<t:…:t>`), else with its date. */
const SAME_DAY_WINDOW_MS = 12 * 60 * 60 * 1000;

/**
 * Escapes text for Discord markdown: inline markers, `<…>` (mentions, timestamps, links), line-start
 * headings, quotes and lists; and breaks `@everyone` / `@here`.
 *
 * @example escapeMarkdown("**@everyone** <@1>") // "\\*\\*@\u200beveryone\\*\\* \\<@1\\>"
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/[\\*_~`|<>[\]]/g, "\\$&")
    .replace(/^(\s*)([#+-])/gm, "$1\\$2")
    .replace(/^(\s*\d+)\.(?=\s)/gm, "$1\\.")
    .replace(/@(everyone|here)/gi, "@\u200b$1");
}

/** Length in code points, as Discord counts `content` and component texts. */
export function chars(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** `text` cut to `max` characters (code points, never splitting a grapheme), with "…" when cut. */
export function shorten(text: string, max: number): string {
  if (chars(text) <= max) return text;
  const graphemes = Array.from(
    GRAPHEMES.segment(truncateGraphemes(text, Math.max(0, max - 1))),
    (s) => s.segment,
  );
  let length = chars(graphemes.join(""));
  while (length > max - 1) length -= chars(graphemes.pop() ?? "");
  return `${graphemes.join("").replace(/\\$/, "")}${ELLIPSIS}`;
}

/** A person's name as content: a Discord mention stays one (shown as their name, never a ping); anything else is text. */
export function nameContent(name: string): string {
  return MENTION.test(name) ? name : escapeMarkdown(name);
}

/** The deadline as Discord renders it for each reader: `14:05 (in 15 minutes)`. */
export function deadlineText(expiresAt: number): string {
  const seconds = Math.floor(expiresAt / 1000);
  return `<t:${seconds}:t> (<t:${seconds}:R>)`;
}

/**
 * A moment in each reader's own time zone (`Channel.formatTime`): `<t:…:t>` (14:05) within 12 hours of
 * `nowMs`, else `<t:…:f>` (1 January 2025 14:05) — a time of day alone would read as today's.
 *
 * @example discordTime(Date.now() - 60_000) // "<t:1735740300:t>"
 */
export function discordTime(epochMs: number, nowMs: number = Date.now()): string {
  const seconds = Math.floor(epochMs / 1000);
  return `<t:${seconds}:${Math.abs(epochMs - nowMs) < SAME_DAY_WINDOW_MS ? "t" : "f"}>`;
}
