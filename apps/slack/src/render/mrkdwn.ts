/**
 * Text for Slack's mrkdwn, pure: escaping (agent text is data: `<!channel>` or `<@U…>` in it mentions
 * nobody), times in the reader's zone, notices, and the summary (core's, shortened until it fits).
 */
import { formatTime, type QuestionRecord, renderSummary as summaryOf } from "@ask-user/core/channel";
import type { types } from "@slack/bolt";
import { MESSAGE_TEXT_MAX_CHARS, SAME_DAY_WINDOW_MS, SECTION_TEXT_MAX_CHARS } from "../limits.ts";
import { mention } from "../users.ts";

/** A message body for `chat.postMessage` / `chat.update`. */
export interface SlackMessage {
  text: string;
  blocks?: types.KnownBlock[];
}

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** Escapes text for mrkdwn: `&` → `&amp;`, `<` → `&lt;`, `>` → `&gt;` (Slack's only control characters). */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Escapes `text` within `max` characters: cut between grapheme clusters (never in an `&amp;`), with `…`. */
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

/** A date Slack shows in the reader's time zone, with a fallback for old clients: `<!date^…^{format}|14:05 UTC>`. */
export function slackDate(epochMs: number, fallback: string, format = "{date_short_pretty} {time}"): string {
  return `<!date^${Math.floor(epochMs / 1000)}^${format}|${fallback.replace(/[|>]/g, "")}>`;
}

/** A moment in a notice (`Channel.formatTime`): `{time}` within 12 hours of `nowMs`, else with the date. */
export function slackTime(epochMs: number, locale: string, nowMs: number): string {
  const near = Math.abs(epochMs - nowMs) < SAME_DAY_WINDOW_MS;
  return slackDate(epochMs, formatTime(epochMs, locale, nowMs), near ? "{time}" : "{date_short} {time}");
}

/** A short message (notice, confirmation): escaped text, no controls. */
export function renderNotice(text: string): SlackMessage {
  return { text: escapeWithin(text, MESSAGE_TEXT_MAX_CHARS) };
}

/** A user mention and a {@link slackTime} as they read once escaped (`&lt;@U0ALICE&gt;`). */
const ESCAPED_MENTION = /&lt;@([UW][A-Z0-9]{2,})&gt;/g;
const ESCAPED_TIME = /&lt;(!date\^\d+\^(?:\{date_short\} )?\{time\}\|[^&<>|]*)&gt;/g;

/** A message one person sees: mentions stay mentions (an ephemeral message notifies nobody), times dates. */
export function renderPrivateNotice(text: string): SlackMessage {
  return { text: renderNotice(text).text.replace(ESCAPED_MENTION, "<@$1>").replace(ESCAPED_TIME, "<$1>") };
}

/** The summary (core's, shortened until it fits escaped) as the only block; the resolver's own `<@U…>` stays. */
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
