/**
 * A message as plain text, roughly as a Discord client shows it — for screenshots in docs and for tests
 * that read a message the way a person does: markdown resolved (mentions as names, timestamps as times,
 * escapes undone, `**bold**` and `-# ` subtext markers dropped), then one line per action row:
 * buttons as `[Send]`, a single-choice select as `Env ▾  ( ) Staging  (•) Production`, a multi-choice
 * one as `Regions ▾  [✓] EU  [ ] US`, and the reactions.
 */
import type { DcComponent, DcReaction } from "./types.ts";

/** How {@link renderMessageText} resolves what the content refers to. */
export interface MessageTextOptions {
  /** The name shown for `<@id>` (without the `@`); default the id. */
  userName?: (id: string) => string | undefined;
  /** The name shown for `<#id>`; default the id. */
  channelName?: (id: string) => string | undefined;
  /** Now (epoch ms), for relative timestamps (`<t:…:R>`). Default `Date.now()`. */
  now?: number;
}

/** The parts of a message the text shows. */
export interface MessageLike {
  content: string;
  components: DcComponent[];
  reactions?: DcReaction[];
}

const BUTTON = 2;
const STRING_SELECT = 3;
const ESCAPED = /\\([\\*_~`|<>[\]#+\-.:@])/g;
const PLACEHOLDER_BASE = 0xe000; // private use: escaped characters survive the markdown passes

const utc = (options: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", ...options });
const FORMATS: Record<string, Intl.DateTimeFormat> = {
  t: utc({ hour: "2-digit", minute: "2-digit" }),
  T: utc({ hour: "2-digit", minute: "2-digit", second: "2-digit" }),
  d: utc({ day: "2-digit", month: "2-digit", year: "numeric" }),
  D: utc({ day: "numeric", month: "long", year: "numeric" }),
  f: utc({ day: "numeric", month: "long", year: "numeric", hour: "2-digit", minute: "2-digit" }),
  F: utc({
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  }),
};
const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ["year", 365 * 86_400],
  ["month", 30 * 86_400],
  ["day", 86_400],
  ["hour", 3600],
  ["minute", 60],
  ["second", 1],
];
const RELATIVE = new Intl.RelativeTimeFormat("en", { numeric: "auto" });

/** `<t:seconds:style>` as a client shows it, in UTC (a client uses the reader's zone). */
function timestamp(seconds: number, style: string, now: number): string {
  if (style === "R") {
    const delta = seconds - Math.round(now / 1000);
    for (const [unit, size] of UNITS) {
      if (Math.abs(delta) >= size || unit === "second")
        return RELATIVE.format(Math.round(delta / size), unit);
    }
  }
  return (FORMATS[style] ?? FORMATS.f)?.format(seconds * 1000) ?? "";
}

/** The content as a person reads it. */
function contentText(content: string, options: MessageTextOptions): string {
  const now = options.now ?? Date.now();
  const escaped: string[] = [];
  let text = content.replace(ESCAPED, (_, char: string) => {
    escaped.push(char);
    return String.fromCharCode(PLACEHOLDER_BASE + escaped.length - 1);
  });
  text = text
    .replace(/<t:(-?\d+)(?::([tTdDfFR]))?>/g, (_, s: string, style = "f") => timestamp(Number(s), style, now))
    .replace(/<@!?(\d+)>/g, (_, id: string) => `@${options.userName?.(id) ?? id}`)
    .replace(/<@&(\d+)>/g, "@role")
    .replace(/<#(\d+)>/g, (_, id: string) => `#${options.channelName?.(id) ?? id}`)
    .replace(/\*\*(.+?)\*\*/g, "$1")
    .replace(/__(.+?)__/g, "$1")
    .replace(/~~(.+?)~~/g, "$1")
    .replace(/^-# /gm, "");
  return text.replace(/[\ue000-\uf8ff]/g, (c) => escaped[c.charCodeAt(0) - PLACEHOLDER_BASE] ?? c);
}

function selectText(select: DcComponent): string {
  const options = (Array.isArray(select.options) ? select.options : []) as Array<Record<string, unknown>>;
  const single = (typeof select.max_values === "number" ? select.max_values : 1) <= 1;
  const marks = single ? ["( )", "(•)"] : ["[ ]", "[✓]"];
  const choices = options.map((o) => `${marks[o.default === true ? 1 : 0]} ${String(o.label)}`);
  const head = typeof select.placeholder === "string" ? `${select.placeholder} ▾` : "▾";
  return [head, ...choices].join("  ");
}

function rowText(row: DcComponent): string {
  return (row.components ?? [])
    .map((c) => {
      if (c.type === STRING_SELECT) return selectText(c);
      if (c.type === BUTTON) return `[${String(c.label ?? "")}${c.disabled === true ? " (disabled)" : ""}]`;
      return `[component ${c.type}]`;
    })
    .join("  ");
}

/**
 * A message as plain text: its content as read, one line per action row, then its reactions.
 *
 * @example
 * renderMessageText(message, { userName: (id) => "alice", now: Date.now() })
 * // "For @alice\n…\nEnv ▾  ( ) Staging  (•) Production\n[Other…]  [Skip]  [Send]"
 */
export function renderMessageText(message: MessageLike, options: MessageTextOptions = {}): string {
  const lines = message.content === "" ? [] : [contentText(message.content, options)];
  for (const row of message.components) lines.push(rowText(row));
  const reactions = (message.reactions ?? []).map((r) => `${r.emoji.name} ${r.count}`);
  if (reactions.length > 0) lines.push(reactions.join("  "));
  return lines.join("\n");
}
