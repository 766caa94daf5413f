/**
 * Telegram's `parse_mode: "HTML"`: the supported tags become entities; anything else is refused the
 * way the Bot API refuses it ("can't parse entities: Unsupported start tag ...", unclosed tags, ...).
 */
import type { TgEntity } from "./types.ts";

/** Result of parsing formatted text: plain text plus entities, or the parse error (without prefix). */
export type Parsed = { ok: true; text: string; entities: TgEntity[] } | { ok: false; error: string };

const TAGS: Record<string, string> = {
  b: "bold",
  strong: "bold",
  i: "italic",
  em: "italic",
  u: "underline",
  ins: "underline",
  s: "strikethrough",
  strike: "strikethrough",
  del: "strikethrough",
  "tg-spoiler": "spoiler",
  span: "spoiler",
  a: "text_link",
  code: "code",
  pre: "pre",
  blockquote: "blockquote",
  "tg-emoji": "custom_emoji",
};

const NAMED: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"' };

interface Open {
  tag: string;
  start: number;
  attrs: Map<string, string>;
  language?: string;
}

class ParseError extends Error {}

/** UTF-8 byte offset of a UTF-16 index, as Telegram reports positions. */
export function byteOffset(src: string, index: number): number {
  return Buffer.byteLength(src.slice(0, index), "utf8");
}

function decodeEntity(src: string, i: number): { text: string; length: number } | undefined {
  const m = /^&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|(lt|gt|amp|quot));/.exec(src.slice(i, i + 12));
  if (!m) return undefined;
  const [whole, dec, hex, name] = m;
  if (name !== undefined) return { text: NAMED[name] ?? "", length: whole.length };
  const code = dec !== undefined ? Number(dec) : Number.parseInt(hex ?? "0", 16);
  if (code > 0x10ffff) return undefined;
  return { text: String.fromCodePoint(code), length: whole.length };
}

function decodeAll(value: string): string {
  let out = "";
  for (let i = 0; i < value.length; ) {
    const entity = value[i] === "&" ? decodeEntity(value, i) : undefined;
    if (entity) {
      out += entity.text;
      i += entity.length;
    } else {
      out += value[i];
      i++;
    }
  }
  return out;
}

/** Parses the attributes of a start tag from `i` (just after the name); returns the index of `>`. */
function readAttributes(src: string, i: number, tag: string, at: number, attrs: Map<string, string>): number {
  for (;;) {
    while (i < src.length && /\s/.test(src[i] ?? "")) i++;
    if (i >= src.length) throw new ParseError(`Unclosed start tag at byte offset ${at}`);
    if (src[i] === ">") return i;
    const name = /^[A-Za-z0-9_-]+/.exec(src.slice(i))?.[0];
    if (!name) throw new ParseError(`Empty attribute name in the tag "${tag}" at byte offset ${at}`);
    i += name.length;
    let value = "";
    if (src[i] === "=") {
      i++;
      const quote = src[i];
      if (quote === '"' || quote === "'") {
        const end = src.indexOf(quote, i + 1);
        if (end < 0) throw new ParseError(`Unclosed start tag at byte offset ${at}`);
        value = src.slice(i + 1, end);
        i = end + 1;
      } else {
        const raw = /^[^\s>]*/.exec(src.slice(i))?.[0] ?? "";
        value = raw;
        i += raw.length;
      }
    }
    attrs.set(name.toLowerCase(), decodeAll(value));
  }
}

function entityFor(open: Open, out: string, stack: Open[]): TgEntity | undefined {
  const offset = open.start;
  const length = out.length - offset;
  if (length === 0) return undefined;
  const type = TAGS[open.tag] ?? "";
  if (open.tag === "a") {
    const href = open.attrs.get("href") ?? "";
    const mention = /^tg:\/\/user\?id=(\d+)$/.exec(href);
    if (mention) {
      return {
        type: "text_mention",
        offset,
        length,
        user: { id: Number(mention[1]), is_bot: false, first_name: "" },
      };
    }
    return href === "" ? undefined : { type: "text_link", offset, length, url: href };
  }
  if (open.tag === "code") {
    const parent = stack.at(-1);
    const language = /^language-(.+)$/.exec(open.attrs.get("class") ?? "")?.[1];
    if (parent?.tag === "pre" && language !== undefined && parent.start === offset) {
      parent.language = language;
      return undefined;
    }
  }
  if (open.tag === "pre" && open.language !== undefined) {
    return { type, offset, length, language: open.language };
  }
  if (open.tag === "blockquote" && open.attrs.has("expandable")) {
    return { type: "expandable_blockquote", offset, length };
  }
  if (open.tag === "tg-emoji") {
    return { type, offset, length, custom_emoji_id: open.attrs.get("emoji-id") ?? "" };
  }
  return { type, offset, length };
}

function checkStartTag(open: Open, at: number): void {
  if (open.tag === "span" && open.attrs.get("class") !== "tg-spoiler") {
    throw new ParseError(`Tag "span" must have class "tg-spoiler" at byte offset ${at}`);
  }
  if (open.tag === "tg-emoji" && !/^\d+$/.test(open.attrs.get("emoji-id") ?? "")) {
    throw new ParseError(`Invalid custom emoji identifier specified at byte offset ${at}`);
  }
}

/** Parses Telegram HTML into plain text and entities. */
export function parseHtml(src: string): Parsed {
  let out = "";
  const entities: TgEntity[] = [];
  const stack: Open[] = [];
  try {
    let i = 0;
    while (i < src.length) {
      const c = src[i] ?? "";
      if (c === "&") {
        const entity = decodeEntity(src, i);
        out += entity ? entity.text : "&";
        i += entity ? entity.length : 1;
        continue;
      }
      if (c !== "<") {
        out += c;
        i++;
        continue;
      }
      const at = byteOffset(src, i);
      if (src[i + 1] === "/") {
        const name = (/^[^\s>]*/.exec(src.slice(i + 2))?.[0] ?? "").toLowerCase();
        let j = i + 2 + name.length;
        while (j < src.length && /\s/.test(src[j] ?? "")) j++;
        if (src[j] !== ">") throw new ParseError(`Unclosed end tag at byte offset ${at}`);
        const open = stack.pop();
        if (!open) throw new ParseError(`Unexpected end tag at byte offset ${at}`);
        if (open.tag !== name) {
          throw new ParseError(
            `Unmatched end tag at byte offset ${at}, expected "</${open.tag}>", found "</${name}>"`,
          );
        }
        const entity = entityFor(open, out, stack);
        if (entity) entities.push(entity);
        i = j + 1;
        continue;
      }
      const name = (/^[^\s>]*/.exec(src.slice(i + 1))?.[0] ?? "").toLowerCase();
      if (!(name in TAGS)) throw new ParseError(`Unsupported start tag "${name}" at byte offset ${at}`);
      const open: Open = { tag: name, start: out.length, attrs: new Map() };
      i = readAttributes(src, i + 1 + name.length, name, at, open.attrs) + 1;
      checkStartTag(open, at);
      stack.push(open);
    }
    const unclosed = stack.at(-1);
    if (unclosed) throw new ParseError(`Can't find end tag corresponding to start tag "${unclosed.tag}"`);
  } catch (error) {
    if (error instanceof ParseError) return { ok: false, error: error.message };
    throw error;
  }
  entities.sort((a, b) => a.offset - b.offset || b.length - a.length);
  return { ok: true, text: out, entities };
}
