/** Small text helpers shared by the normaliser, the reply parser and the renderers. Pure. */

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

// Printable ASCII has one grapheme per UTF-16 unit: skip the (slow) segmenter for it.
const plainAscii = /^[\x20-\x7e]*$/;

/** Number of user-perceived characters (grapheme clusters) in `text`. */
export function graphemeLength(text: string): number {
  if (plainAscii.test(text)) return text.length;
  let count = 0;
  for (const _ of segmenter.segment(text)) count++;
  return count;
}

/** `text` cut to at most `max` grapheme clusters, never inside one (emoji, combining marks stay whole). */
export function truncateGraphemes(text: string, max: number): string {
  if (plainAscii.test(text)) return text.slice(0, max);
  let out = "";
  let count = 0;
  for (const { segment } of segmenter.segment(text)) {
    if (count === max) return out;
    out += segment;
    count++;
  }
  return out;
}

/** How a platform counts a text's length: UTF-16 code units (most) or code points (Discord). */
export type LengthUnit = "utf16" | "codePoint";

/** Number of code points in `text` (an emoji such as 👍 is 1, 👍🏽 is 2). */
function codePoints(text: string): number {
  if (plainAscii.test(text)) return text.length;
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/**
 * `text` cut to at most `max` units, ending in "…" when cut, never inside a grapheme cluster (trailing
 * white space before the "…" dropped). `unit` is how the platform counts: UTF-16 code units (default)
 * or code points (Discord).
 *
 * @example
 * clipText("Deploy to production now", 10); // "Deploy to…"
 * clipText("👍👍👍👍", 3, "codePoint"); // "👍👍…"
 */
export function clipText(text: string, max: number, unit: LengthUnit = "utf16"): string {
  const length = unit === "utf16" ? (part: string) => part.length : codePoints;
  if (text.length <= max || length(text) <= max) return text;
  if (max <= 0) return "";
  let out = "";
  let used = 0;
  for (const { segment } of segmenter.segment(text)) {
    const size = length(segment);
    if (used + size > max - 1) break;
    out += segment;
    used += size;
  }
  return `${out.trimEnd()}…`;
}

/** The suffix that marks the recommended option (guidance for the model; the first option carries it). */
export const RECOMMENDED_SUFFIX = "(Recommended)";

const recommendedPattern = /\s*\(recommended\)\s*$/i;

/** True when a label ends with `(Recommended)` (any case). */
export function isRecommended(label: string): boolean {
  return recommendedPattern.test(label);
}

/** The label without a trailing `(Recommended)`. */
export function stripRecommended(label: string): string {
  // Most text has no ")" at its end: skip the regular expression then.
  return label.trimEnd().endsWith(")") ? label.replace(recommendedPattern, "") : label;
}

/** NFKC, trimmed, runs of white space folded to one space (newlines kept out: use per line). */
export function tidy(text: string): string {
  return text.normalize("NFKC").replace(/\s+/gu, " ").trim();
}

const quotePairs: Array<[string, string]> = [
  ['"', '"'],
  ["'", "'"],
  ["“", "”"],
  ["„", "“"],
  ["‘", "’"],
  ["«", "»"],
  ["»", "«"],
  ["`", "`"],
];

/** Removes one pair of surrounding quotes, if the text is wholly quoted. */
export function stripQuotes(text: string): string {
  for (const [open, close] of quotePairs) {
    if (text.length >= 2 && text.startsWith(open) && text.endsWith(close)) return text.slice(1, -1).trim();
  }
  return text;
}

/**
 * The comparison key of a label or reply: NFKC, trimmed, spaces folded, case folded, surrounding quotes
 * and a trailing `(Recommended)` removed. Two strings with the same key are the same answer.
 */
export function compareKey(text: string): string {
  if (plainAscii.test(text)) {
    // Printable ASCII is already NFKC and has no white space but the plain space: the cheap way.
    const spaced = text.includes("  ") ? text.replace(/ {2,}/g, " ") : text;
    return stripRecommended(stripQuotes(spaced.trim())).toLowerCase().trim();
  }
  return stripRecommended(stripQuotes(tidy(text)))
    .toLocaleLowerCase("en-US")
    .trim();
}

/** Replaces keycap digits (2️⃣, 🔟) by plain digits so that they count as numbers. */
export function replaceKeycaps(text: string): string {
  if (!text.includes("\u20E3") && !text.includes("\u{1F51F}")) return text;
  return text.replace(/([0-9])\uFE0F?\u20E3/gu, "$1").replace(/\u{1F51F}/gu, "10");
}
