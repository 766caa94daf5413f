/**
 * Telegram's `parse_mode: "MarkdownV2"` (strict: reserved characters must be escaped) and the
 * legacy `"Markdown"`. Errors use the Bot API's wording.
 */
import { byteOffset, type Parsed } from "./html.ts";
import type { TgEntity } from "./types.ts";

const RESERVED = "_*[]()~`>#+-=|{}.!";

const NAMES: Record<string, string> = {
  bold: "Bold",
  italic: "Italic",
  underline: "Underline",
  strikethrough: "Strikethrough",
  spoiler: "Spoiler",
  text_link: "TextUrl",
  custom_emoji: "CustomEmoji",
};

interface Open {
  type: string;
  start: number;
  at: number;
}

class ParseError extends Error {}

/** Reads up to an unescaped `close` from `i`, unescaping `\x`; undefined when there is none. */
function readUntil(src: string, i: number, close: string): { value: string; end: number } | undefined {
  let value = "";
  while (i < src.length) {
    if (src[i] === "\\" && i + 1 < src.length) {
      value += src[i + 1];
      i += 2;
    } else if (src.startsWith(close, i)) {
      return { value, end: i + close.length };
    } else {
      value += src[i];
      i++;
    }
  }
  return undefined;
}

function linkEntity(url: string, offset: number, length: number, type: string): TgEntity {
  const mention = /^tg:\/\/user\?id=(\d+)$/.exec(url);
  if (type === "custom_emoji") {
    return { type, offset, length, custom_emoji_id: /[?&]id=(\d+)/.exec(url)?.[1] ?? "" };
  }
  if (mention) {
    return {
      type: "text_mention",
      offset,
      length,
      user: { id: Number(mention[1]), is_bot: false, first_name: "" },
    };
  }
  return { type: "text_link", offset, length, url };
}

/** Parses MarkdownV2 into plain text and entities. */
export function parseMarkdownV2(src: string): Parsed {
  let out = "";
  const entities: TgEntity[] = [];
  const stack: Open[] = [];
  let quote: { start: number; type: string } | undefined;
  const push = (entity: TgEntity) => {
    if (entity.length > 0) entities.push(entity);
  };
  const toggle = (type: string, at: number) => {
    const top = stack.at(-1);
    if (top?.type === type) {
      stack.pop();
      push({ type, offset: top.start, length: out.length - top.start });
    } else {
      stack.push({ type, start: out.length, at });
    }
  };
  try {
    let i = 0;
    while (i < src.length) {
      const c = src[i] ?? "";
      const at = byteOffset(src, i);
      const lineStart = i === 0 || src[i - 1] === "\n";
      if (lineStart && quote && c !== ">" && !src.startsWith("**>", i)) {
        push({ type: quote.type, offset: quote.start, length: out.length - 1 - quote.start });
        quote = undefined;
      }
      if (c === "\\" && i + 1 < src.length && (src.codePointAt(i + 1) ?? 0) <= 126) {
        out += src[i + 1];
        i += 2;
      } else if (lineStart && (c === ">" || src.startsWith("**>", i))) {
        const expandable = c === "*";
        quote ??= { start: out.length, type: expandable ? "expandable_blockquote" : "blockquote" };
        i += expandable ? 3 : 1;
      } else if (!RESERVED.includes(c)) {
        out += c;
        i++;
      } else if (c === "`") {
        const pre = src.startsWith("```", i);
        let j = i + (pre ? 3 : 1);
        let language: string | undefined;
        if (pre) {
          const firstLine = /^([^\s`]*)\n/.exec(src.slice(j));
          if (firstLine) {
            if (firstLine[1] !== "") language = firstLine[1];
            j += firstLine[0].length;
          }
        }
        const body = readUntil(src, j, pre ? "```" : "`");
        if (!body)
          throw new ParseError(`Can't find end of ${pre ? "Pre" : "Code"} entity at byte offset ${at}`);
        const entity: TgEntity = {
          type: pre ? "pre" : "code",
          offset: out.length,
          length: body.value.length,
        };
        if (language !== undefined) entity.language = language;
        out += body.value;
        push(entity);
        i = body.end;
      } else if (c === "[" || (c === "!" && src[i + 1] === "[")) {
        stack.push({ type: c === "[" ? "text_link" : "custom_emoji", start: out.length, at });
        i += c === "[" ? 1 : 2;
      } else if (c === "]" && (stack.at(-1)?.type === "text_link" || stack.at(-1)?.type === "custom_emoji")) {
        const open = stack.pop() as Open;
        i++;
        if (src[i] === "(") {
          const url = readUntil(src, i + 1, ")");
          if (!url) throw new ParseError(`Can't find end of a URL at byte offset ${byteOffset(src, i)}`);
          push(linkEntity(url.value, open.start, out.length - open.start, open.type));
          i = url.end;
        }
      } else if (c === "*") {
        toggle("bold", at);
        i++;
      } else if (c === "~") {
        toggle("strikethrough", at);
        i++;
      } else if (c === "|" && src[i + 1] === "|") {
        toggle("spoiler", at);
        i += 2;
      } else if (c === "_") {
        const top = stack.at(-1)?.type;
        const underline = src[i + 1] === "_" && top !== "italic";
        toggle(underline ? "underline" : "italic", at);
        i += underline ? 2 : 1;
      } else {
        throw new ParseError(`Character '${c}' is reserved and must be escaped with the preceding '\\'`);
      }
    }
    if (quote) push({ type: quote.type, offset: quote.start, length: out.length - quote.start });
    const unclosed = stack.at(-1);
    if (unclosed) {
      throw new ParseError(`Can't find end of ${NAMES[unclosed.type]} entity at byte offset ${unclosed.at}`);
    }
  } catch (error) {
    if (error instanceof ParseError) return { ok: false, error: error.message };
    throw error;
  }
  entities.sort((a, b) => a.offset - b.offset || b.length - a.length);
  return { ok: true, text: out, entities };
}

/** Parses legacy Markdown (`*bold*`, `_italic_`, `` `code` ``, ```` ```pre``` ````, `[text](url)`). */
export function parseMarkdown(src: string): Parsed {
  let out = "";
  const entities: TgEntity[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i] ?? "";
    const fail = {
      ok: false as const,
      error: `Can't find end of the entity starting at byte offset ${byteOffset(src, i)}`,
    };
    if (c === "*" || c === "_" || c === "`") {
      const marker = c === "`" && src.startsWith("```", i) ? "```" : c;
      const end = src.indexOf(marker, i + marker.length);
      if (end < 0) return fail;
      const body = src.slice(i + marker.length, end);
      const type = { "*": "bold", _: "italic", "`": "code", "```": "pre" }[marker] ?? "bold";
      if (body.length > 0) entities.push({ type, offset: out.length, length: body.length });
      out += body;
      i = end + marker.length;
    } else if (c === "[") {
      const close = src.indexOf("]", i + 1);
      if (close < 0 || src[close + 1] !== "(") return fail;
      const urlEnd = src.indexOf(")", close + 2);
      if (urlEnd < 0) return fail;
      const label = src.slice(i + 1, close);
      if (label.length > 0)
        entities.push(linkEntity(src.slice(close + 2, urlEnd), out.length, label.length, "text_link"));
      out += label;
      i = urlEnd + 1;
    } else {
      out += c;
      i++;
    }
  }
  return { ok: true, text: out, entities };
}
