/**
 * Text as Discord message content: escaping agent text (data, never markup), lengths as Discord counts
 * them, shortening with "…", and the few pieces of markup the channel writes itself — a person's
 * `<@id>` and timestamps `<t:…>`. Pure: no client, no I/O.
 */
import { clipText } from "@ask-user/core/channel";

export const MENTION = /^<@!?\d{15,21}>$/;
export const TIMESTAMP = /^<t:-?\d+:[tTdDfFR]>$/;

/**
 * Inline markers, `<…>` (mentions, timestamps, links), line-start headings, quotes and lists; and breaks
 * `@everyone` / `@here`.
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
export const chars = (text: string) => [...text].length;

/**
 * `text` cut to `max` code points (as Discord counts) with "…" (core's `clipText`), never splitting a
 * grapheme, and never leaving an escape's backslash before the "…".
 */
export function shorten(text: string, max: number): string {
  const cut = clipText(text, max, "codePoint");
  return cut === text ? text : cut.replace(/\\…$/, "…");
}

/** A Discord mention stays one (shown as the name, never a ping); any other name is text. */
export function nameContent(name: string): string {
  return MENTION.test(name) ? name : escapeMarkdown(name);
}

/** The deadline as Discord renders it for each reader: `14:05 (in 15 minutes)`. */
export function deadlineText(expiresAt: number): string {
  const seconds = Math.floor(expiresAt / 1000);
  return `<t:${seconds}:t> (<t:${seconds}:R>)`;
}

/**
 * `Channel.formatTime`, in each reader's zone: `<t:…:t>` (14:05) within 12 hours of `nowMs`, else
 * `<t:…:f>` (1 January 2025 14:05) — a time of day alone would read as today's.
 */
export function discordTime(epochMs: number, nowMs: number = Date.now()): string {
  const seconds = Math.floor(epochMs / 1000);
  return `<t:${seconds}:${Math.abs(epochMs - nowMs) < 12 * 3_600_000 ? "t" : "f"}>`;
}
