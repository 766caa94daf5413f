/**
 * Notices and summaries as Discord message content, and how Discord names people (SPEC §5): `<@id>`,
 * shown as the name, never a ping (every message goes out with mentions suppressed). Pure.
 *
 * Core's text mixes fixed sentences, agent text and answers; all of it is escaped except the one slot
 * where core put a person's name ("for <@id>", "answered by <@id>", "— <@id>", "skipped by <@id>"),
 * which stays a mention and is never shortened, and an expiry refusal's time, a Discord timestamp.
 */
import {
  type Actor,
  actorName,
  type Locale,
  messagesFor,
  type QuestionRecord,
  renderSummary,
} from "@ask-user/core/channel";
import { SNOWFLAKE } from "../conversation.ts";
import { MESSAGE_CONTENT_MAX_CHARS } from "../limits.ts";
import { chars, escapeMarkdown, MENTION, nameContent, shorten, TIMESTAMP } from "./markdown.ts";

/** Every catalogue: a sentence is recognised whatever locale core wrote it in. */
const LOCALES = Object.keys({ en: 0, de: 0 } satisfies Record<Locale, 0>);

/** `<@id>`, shown as the user's name; `undefined` for something that is not a user id. */
export function mentionOf(userId: string): string | undefined {
  return SNOWFLAKE.test(userId) ? `<@${userId}>` : undefined;
}

/** `head` escaped and cut to fit, then `tail` (already content) whole. */
function withTail(head: string, tail: string): string {
  return `${shorten(escapeMarkdown(head), MESSAGE_CONTENT_MAX_CHARS - chars(tail))}${tail}`;
}

/** The parts of `template(slot)` around the slot, e.g. `["This question is for ", "."]`. */
function around(template: (slot: string) => string): [string, string] {
  const [before = "", after = ""] = template("\u0000").split("\u0000");
  return [before, after];
}

/** A refusal's one slot — a name (mention) or the expiry time (`formatTime`'s timestamp) — as [before, markup, after]. */
function refusalMarkup(text: string): [string, string, string] | undefined {
  for (const m of LOCALES.map((locale) => messagesFor(locale))) {
    const slots = [
      [m.refusedForOther, MENTION],
      [m.refusedAnsweredBy, MENTION],
      [m.refusedExpired, TIMESTAMP],
    ] as const;
    for (const [template, markup] of slots) {
      const [before, after] = around(template);
      const slot = text.slice(before.length, text.length - after.length);
      const fits =
        text.length > before.length + after.length && text.startsWith(before) && text.endsWith(after);
      if (fits && markup.test(slot)) return [before, slot, after];
    }
  }
  return undefined;
}

/** A confirmation, refusal or hint as content: escaped, within 2000 characters, a refusal's slot kept markup. */
export function renderNotice(text: string): string {
  const markup = refusalMarkup(text);
  if (!markup) return shorten(escapeMarkdown(text), MESSAGE_CONTENT_MAX_CHARS);
  const [before, slot, after] = markup;
  return withTail(before, `${slot}${escapeMarkdown(after)}`);
}

/**
 * A summary as [text to escape, tail already content]: the attribution core puts last (`— <@id>`,
 * `skipped by <@id>`, `via HTTP API`) is the tail; the name of a Discord user stays a mention.
 */
function summaryParts(summary: string, resolvedBy: Actor | undefined, channel: string): [string, string] {
  if (resolvedBy) {
    for (const locale of LOCALES) {
      // Core's name for the actor: a chat user's name, or `alice via HTTP API` on an operator surface.
      const name = actorName(resolvedBy, locale);
      if (name === "" || !summary.endsWith(name)) continue;
      // `… — <@id>` keeps its dash with the name; `skipped by <@id>` is headers only, never long.
      const [before, after] = around(messagesFor(locale).summaryBy);
      const [b, a] = summary.endsWith(`${before}${name}${after}`) ? [before, after] : ["", ""];
      const shown = resolvedBy.channel === channel ? nameContent(name) : escapeMarkdown(name);
      const tail = `${escapeMarkdown(b)}${shown}${escapeMarkdown(a)}`;
      return [summary.slice(0, summary.length - b.length - name.length - a.length), tail];
    }
  }
  return [summary, ""];
}

/**
 * A summary (`✅ Deploy: Production — <@id>`) as content: escaped, the attribution whole (a mention for
 * a user of `channel`); cut only as a last resort — {@link renderSummaryContent} shortens answers first.
 */
export function renderSummaryNotice(summary: string, resolvedBy: Actor | undefined, channel: string): string {
  const [head, tail] = summaryParts(summary, resolvedBy, channel);
  return withTail(head, tail);
}

/** Core's summary, its longest answers shortened until the escaped content fits 2000 characters. */
export function renderSummaryContent(record: QuestionRecord, channel: string): string {
  const fits = (summary: string) => {
    const [head, tail] = summaryParts(summary, record.resolvedBy, channel);
    return chars(escapeMarkdown(head)) + chars(tail) <= MESSAGE_CONTENT_MAX_CHARS;
  };
  const summary = renderSummary(record, { locale: record.locale, fits });
  return renderSummaryNotice(summary, record.resolvedBy, channel);
}

/** How a person is named in summaries and refusals. */
export function nameOf(user: { id: string; username: string }): string {
  return mentionOf(user.id) ?? `@${user.username}`;
}
