/**
 * Slack's emoji shortcodes → the emoji: `two` → 2️⃣, `white_check_mark` → ✅, `+1` with skin tone 4 → 👍🏽.
 * The names are Slack's own (emojibase-data's iamcal set, which Slack's emoji data comes from), loaded on
 * first use.
 */
import { createRequire } from "node:module";

interface CompactEmoji {
  hexcode: string;
  unicode: string;
  skins?: CompactEmoji[];
}

/** Slack's skin-tone suffix number (`::skin-tone-2:` … `::skin-tone-6:`) → the modifier's hex code. */
const SKIN_TONE_HEX: Record<number, string> = { 2: "1F3FB", 3: "1F3FC", 4: "1F3FD", 5: "1F3FE", 6: "1F3FF" };

/** Shortcode → hex code (`two` → `0032-FE0F-20E3`); hex code → the emoji, skin-toned variants included. */
let tables: { hexOf: Map<string, string>; emojiOf: Map<string, string> } | undefined;

/** The emoji as people type it: no variation selector after a character that is an emoji anyway. */
function typed(unicode: string): string {
  return unicode.replace(/(\p{Emoji_Presentation})\uFE0F/gu, "$1");
}

function fromHex(hexcode: string): string {
  return String.fromCodePoint(...hexcode.split("-").map((hex) => Number.parseInt(hex, 16)));
}

function load() {
  if (tables) return tables;
  const require = createRequire(import.meta.url);
  const names = require("emojibase-data/en/shortcodes/iamcal.json") as Record<string, string | string[]>;
  const data = require("emojibase-data/en/compact.json") as CompactEmoji[];
  const emojiOf = new Map<string, string>();
  for (const entry of data) {
    emojiOf.set(entry.hexcode, typed(entry.unicode));
    for (const skin of entry.skins ?? []) emojiOf.set(skin.hexcode, typed(skin.unicode));
  }
  const hexOf = new Map<string, string>();
  for (const [hexcode, list] of Object.entries(names)) {
    for (const name of [list].flat()) if (!hexOf.has(name)) hexOf.set(name, hexcode);
  }
  tables = { hexOf, emojiOf };
  return tables;
}

/** The emoji for a shortcode name and Slack's skin tone (2–6); `undefined` for one Slack does not know (custom). */
export function emojiFor(name: string, skinTone?: number): string | undefined {
  const { hexOf, emojiOf } = load();
  const hexcode = hexOf.get(name);
  if (hexcode === undefined) return undefined;
  const base = emojiOf.get(hexcode) ?? fromHex(hexcode);
  const tone = skinTone === undefined ? undefined : SKIN_TONE_HEX[skinTone];
  if (tone === undefined) return base;
  return emojiOf.get(`${hexcode}-${tone}`) ?? `${base}${fromHex(tone)}`;
}
