/**
 * What Slack does to what people type before it reaches an app (the `text` of a `message` event), and
 * how Slack shows a message text to people. Emoji names are Slack's (emojibase-data's iamcal set).
 */
import { createRequire } from "node:module";
import type { State } from "./state.ts";

interface CompactEmoji {
  hexcode: string;
  unicode: string;
  skins?: CompactEmoji[];
}

/** Skin-tone modifier code point (hex) → Slack's suffix number (`:+1::skin-tone-2:`). */
const SKIN_TONES: Record<string, number> = { "1F3FB": 2, "1F3FC": 3, "1F3FD": 4, "1F3FE": 5, "1F3FF": 6 };

let shortcodes: Map<string, string> | undefined;

/** Emoji (as typed) → Slack's shortcode, e.g. `2️⃣` → `:two:`, `👍🏽` → `:+1::skin-tone-4:`. */
function shortcodeTable(): Map<string, string> {
  if (shortcodes) return shortcodes;
  const require = createRequire(import.meta.url);
  const names = require("emojibase-data/en/shortcodes/iamcal.json") as Record<string, string | string[]>;
  const emoji = require("emojibase-data/en/compact.json") as CompactEmoji[];
  const table = new Map<string, string>();
  const add = (unicode: string, code: string) => {
    // Keyboards send the emoji with or without the variation selector (`✅`, `2⃣`): both count.
    const bare = unicode.replace(/\uFE0F/g, "");
    const forms = [unicode, unicode.replace(/(\p{Emoji_Presentation})\uFE0F/gu, "$1")];
    if (bare.includes("\u20E3")) forms.push(bare);
    for (const form of forms) if (!table.has(form)) table.set(form, code);
  };
  for (const entry of emoji) {
    const name = [names[entry.hexcode] ?? []].flat()[0];
    if (name === undefined) continue;
    add(entry.unicode, `:${name}:`);
    for (const skin of entry.skins ?? []) {
      const tone = SKIN_TONES[skin.hexcode.split("-").find((part) => part in SKIN_TONES) ?? ""];
      const own = [names[skin.hexcode] ?? []].flat()[0];
      if (own !== undefined) add(skin.unicode, `:${own}:`);
      else if (tone !== undefined) add(skin.unicode, `:${name}::skin-tone-${tone}:`);
    }
  }
  shortcodes = table;
  return table;
}

const segmenter = new Intl.Segmenter("en", { granularity: "grapheme" });

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The people (and the app's bot user) that `@name` can mention: name → user id. */
function mentionable(state: State): Map<string, string> {
  const names = new Map<string, string>();
  names.set(state.app.botName.toLowerCase(), state.app.botUserId);
  for (const user of state.users.values()) {
    for (const name of [user.display_name, user.name]) {
      if (name) names.set(name.toLowerCase(), user.id);
    }
  }
  return names;
}

/**
 * What Slack sends for a message someone typed: emoji as shortcodes (`2️⃣` → `:two:`), `&`, `<`, `>`
 * escaped (`&amp;` `&lt;` `&gt;`), links wrapped (`https://x` → `<https://x>`), and `@name` of a
 * known person or of the app's bot user as a mention (`<@U123>`). Line breaks are kept.
 */
export function typedToWire(state: State, typed: string): string {
  const table = shortcodeTable();
  let text = "";
  for (const { segment } of segmenter.segment(typed)) text += table.get(segment) ?? segment;
  text = text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const people = mentionable(state);
  const names = [...people.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const mention = names.length > 0 ? `|(?<![\\w@])@(${names.join("|")})(?![\\w-])` : "";
  const pattern = new RegExp(`(https?://[^\\s<>|]+)${mention}`, "giu");
  return text.replace(pattern, (whole, url: string | undefined, name: string | undefined) => {
    if (url !== undefined) return `<${url}>`;
    const id = name === undefined ? undefined : people.get(name.toLowerCase());
    return id === undefined ? whole : `<@${id}>`;
  });
}

/**
 * How Slack shows a message text (mrkdwn) to people: `<@U123>` → `@name`, `<#C1|general>` →
 * `#general`, `<!here>` → `@here`, `<!date^…|fallback>` → the fallback, `<https://x|label>` → `label`,
 * and `&amp;` `&lt;` `&gt;` as `&` `<` `>`. Emoji shortcodes and formatting stay as they are.
 */
export function displayText(state: State, text: string): string {
  const shown = text.replace(/<([^<>]*)>/g, (_whole, inner: string) => {
    const bar = inner.indexOf("|");
    const target = bar === -1 ? inner : inner.slice(0, bar);
    const label = bar === -1 ? undefined : inner.slice(bar + 1);
    if (target.startsWith("@")) {
      if (label !== undefined) return `@${label}`;
      const id = target.slice(1);
      const user = state.users.get(id);
      if (id === state.app.botUserId) return `@${state.app.botName}`;
      return `@${user?.display_name || user?.name || id}`;
    }
    if (target.startsWith("#")) return `#${label ?? target.slice(1)}`;
    if (target.startsWith("!")) {
      if (label !== undefined) return label;
      return `@${target.slice(1).split("^")[0] ?? ""}`;
    }
    return label ?? target;
  });
  return shown.replace(/&(amp|lt|gt);/g, (_whole, name: string) =>
    name === "amp" ? "&" : name === "lt" ? "<" : ">",
  );
}
