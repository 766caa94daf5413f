/**
 * Text for Slack's mrkdwn, pure: escaping (agent text is data: `<!channel>` or `<@U…>` in it mentions
 * nobody), times in the reader's zone, notices, and the after-resolution summary (core's, shortened by
 * core until the escaped text fits a section).
 */
import { formatTime, type QuestionRecord, renderSummary as summaryOf } from "@ask-user/core/channel";
import type { types } from "@slack/bolt";
import { MESSAGE_TEXT_MAX_CHARS, SAME_DAY_WINDOW_MS, SECTION_TEXT_MAX_CHARS } from "../limits.ts";
import { mention } from "../users.ts";

/** A message body for `chat.postMessage` / `chat.update`: the `text` fallback is always set. */
export interface SlackMessage {
  text: string;
  blocks?: types.KnownBlock[];
}

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** Escapes text for mrkdwn: `&` → `&amp;`, `<` → `&lt;`, `>` → `&gt;` (Slack's only control characters). */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * Escapes `text` and keeps the result within `max` characters: cut between grapheme clusters (never
 * inside an emoji or an `&amp;`), with `…` when something was cut.
 */
export function escapeWithin(text: string, max: number): string {
  const escaped = escapeMrkdwn(text);
  if (escaped.length <= max) return escaped;
  let out = "";
  for (const { segment } of segmenter.segment(text)) {
    const next = escapeMrkdwn(segment);
    if (out.length + next.length > max - 1) break;
    out += next;
  }
  return `${out}…`;
}

/**
 * A date Slack shows in the reader's own time zone and locale, with a fallback for old clients:
 * `<!date^1767276300^{date_short_pretty} {time}|14:05 UTC>`.
 */
export function slackDate(epochMs: number, fallback: string): string {
  return `<!date^${Math.floor(epochMs / 1000)}^{date_short_pretty} {time}|${fallback.replace(/[|>]/g, "")}>`;
}

/**
 * A moment in the reader's own time zone for a notice (`Channel.formatTime`): `<!date^…^{time}|14:05 UTC>`,
 * with the date too (`{date_short} {time}`) when it is not within 12 hours of `nowMs`; the fallback is
 * core's UTC time.
 */
export function slackTime(epochMs: number, locale: string, nowMs: number): string {
  const near = Math.abs(epochMs - nowMs) < SAME_DAY_WINDOW_MS;
  const fallback = formatTime(epochMs, locale, nowMs).replace(/[|>]/g, "");
  return `<!date^${Math.floor(epochMs / 1000)}^${near ? "{time}" : "{date_short} {time}"}|${fallback}>`;
}

/** A short message (notice, confirmation): escaped text, no controls. */
export function renderNotice(text: string): SlackMessage {
  return { text: escapeWithin(text, MESSAGE_TEXT_MAX_CHARS) };
}

/** A user mention as it reads once escaped (`&lt;@U0ALICE&gt;`). */
const ESCAPED_MENTION = /&lt;@([UW][A-Z0-9]{2,})&gt;/g;

/** A {@link slackTime} as it reads once escaped (`&lt;!date^1767362700^{time}|14:05 UTC&gt;`). */
const ESCAPED_TIME = /&lt;(!date\^\d+\^(?:\{date_short\} )?\{time\}\|[^&<>|]*)&gt;/g;

/**
 * A message only one person sees (a refusal, a hint): escaped like {@link renderNotice}, except that
 * user mentions `<@U…>` stay mentions, which Slack shows as the person's name (SPEC §5), and times from
 * {@link slackTime} stay dates in the reader's time zone. An ephemeral message notifies nobody.
 */
export function renderPrivateNotice(text: string): SlackMessage {
  return { text: renderNotice(text).text.replace(ESCAPED_MENTION, "<@$1>").replace(ESCAPED_TIME, "<$1>") };
}

/**
 * The after-resolution summary (core's, SPEC §6) in a section that replaces every block (controls gone).
 * Who resolved it stays a mention when that is what they are called (`<@U0ALICE>`: `users.info` gave no
 * name), which Slack shows as the person's name; everything else is escaped. Core shortens the longest
 * answer until the escaped summary fits a section: every question and the attribution stay.
 */
export function renderSummary(
  record: QuestionRecord,
  options: { channel: string; locale: string },
): SlackMessage & { blocks: types.KnownBlock[] } {
  const by = record.resolvedBy;
  const kept = by?.channel === options.channel && by.displayName === mention(by.userId) ? by.displayName : "";
  const mrkdwn = (summary: string) =>
    kept && summary.endsWith(kept)
      ? `${escapeMrkdwn(summary.slice(0, summary.length - kept.length))}${kept}`
      : escapeMrkdwn(summary);
  const summary = summaryOf(record, {
    locale: options.locale,
    fits: (text) => mrkdwn(text).length <= SECTION_TEXT_MAX_CHARS,
  });
  const text = mrkdwn(summary);
  return { text, blocks: [{ type: "section", text: { type: "mrkdwn", text } }] };
}
