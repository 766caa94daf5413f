/** Message text as Telegram stores it: parse_mode applied, whitespace trimmed, length checked. */
import { parseHtml } from "./html.ts";
import { MESSAGE_TEXT_MAX_CHARS, MESSAGE_TEXT_MIN_CHARS } from "./limits.ts";
import { parseMarkdown, parseMarkdownV2 } from "./markdown.ts";
import { badRequest, charCount, isObject, optJson, optStr, type Params } from "./params.ts";
import type { TgEntity } from "./types.ts";

/** A message text after parsing. */
export interface FormattedText {
  text: string;
  entities: TgEntity[];
  source: string;
  parseMode?: string;
}

function trimmed(text: string, entities: TgEntity[]): { text: string; entities: TgEntity[] } {
  const lead = (/^\s*/.exec(text)?.[0] ?? "").length;
  const kept = text.slice(lead).trimEnd();
  const result: TgEntity[] = [];
  for (const entity of entities) {
    const start = Math.max(entity.offset - lead, 0);
    const end = Math.min(entity.offset + entity.length - lead, kept.length);
    if (end > start) result.push({ ...entity, offset: start, length: end - start });
  }
  return { text: kept, entities: result };
}

function givenEntities(params: Params): TgEntity[] {
  const raw = optJson(params, "entities", "message entities");
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw badRequest('field "entities" must be an Array');
  return raw.map((entity) => {
    if (!isObject(entity) || typeof entity.type !== "string")
      throw badRequest("can't parse message entities");
    return { ...entity, type: entity.type, offset: Number(entity.offset), length: Number(entity.length) };
  });
}

/**
 * Reads `text` + `parse_mode` (or explicit `entities`) the way the Bot API does and enforces the
 * 1–4096 character limit on the result.
 */
export function formatText(params: Params): FormattedText {
  const source = optStr(params, "text") ?? "";
  const parseMode = optStr(params, "parse_mode");
  let parsed: { text: string; entities: TgEntity[] };
  if (parseMode === undefined || parseMode === "") {
    parsed = { text: source, entities: givenEntities(params) };
  } else {
    const mode = parseMode.toLowerCase();
    const result =
      mode === "html"
        ? parseHtml(source)
        : mode === "markdownv2"
          ? parseMarkdownV2(source)
          : mode === "markdown"
            ? parseMarkdown(source)
            : undefined;
    if (result === undefined) throw badRequest("unsupported parse_mode");
    if (!result.ok) throw badRequest(`can't parse entities: ${result.error}`);
    parsed = result;
  }
  const { text, entities: parsedEntities } = trimmed(parsed.text, parsed.entities);
  const entities = withMentions(text, parsedEntities);
  const length = charCount(text);
  if (length < MESSAGE_TEXT_MIN_CHARS) throw badRequest("message text is empty");
  if (length > MESSAGE_TEXT_MAX_CHARS) throw badRequest("message is too long");
  const formatted: FormattedText = { text, entities, source };
  if (parseMode !== undefined && parseMode !== "") formatted.parseMode = parseMode;
  return formatted;
}

/**
 * Telegram links `@username` in any message and notifies that user: adds a `mention` entity for each
 * `@name` (5–32 of `[A-Za-z0-9_]`, starting with a letter) outside the given entities, sorted by offset.
 */
export function withMentions(text: string, entities: TgEntity[]): TgEntity[] {
  const mentions: TgEntity[] = [];
  for (const match of text.matchAll(/(?<![A-Za-z0-9_@])@[A-Za-z][A-Za-z0-9_]{4,31}(?![A-Za-z0-9_])/g)) {
    const offset = match.index ?? 0;
    const length = match[0].length;
    const inside = entities.some((e) => offset < e.offset + e.length && e.offset < offset + length);
    if (!inside) mentions.push({ type: "mention", offset, length });
  }
  if (mentions.length === 0) return entities;
  return [...entities, ...mentions].sort((a, b) => a.offset - b.offset);
}

/** `bot_command` entities Telegram attaches to a user's text (`/start`, `/help@bot`). */
export function commandEntities(text: string): TgEntity[] {
  const entities: TgEntity[] = [];
  for (const match of text.matchAll(/(^|\s)(\/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{3,32})?)(?=\s|$)/g)) {
    const command = match[2] ?? "";
    entities.push({
      type: "bot_command",
      offset: (match.index ?? 0) + (match[1] ?? "").length,
      length: command.length,
    });
  }
  return entities;
}
