/**
 * The words and characters replies are read by (SPEC §7): comparison keys, every catalogue's skip words
 * and other-prefixes, and the multi-select separators. Pure.
 */
import { type Locale, messagesFor } from "../prompt/i18n.ts";
import { compareKey, replaceKeycaps } from "../prompt/text.ts";
import type { PromptQuestion } from "../schema/schema.ts";

const SEPARATORS_ALL = /[,;，；、\r\n\u2028\u2029]/gu;

/** Printable ASCII: its own NFKC form, no keycaps, and no white space but the plain space. */

export const PLAIN_ASCII = /^[\x20-\x7e]*$/;

// Every catalogue's words count in every chat: a German user writing "skip" is understood, and so is
// an English user writing "überspringen". The record makes a new locale a compile error here.
const LOCALES: Record<Locale, true> = { en: true, de: true };
const catalogues = Object.keys(LOCALES).map((locale) => messagesFor(locale));
const skipKeys = new Set(catalogues.flatMap((messages) => messages.skipWords.map(keyOf)));
const otherPrefixes = [
  ...new Set(catalogues.flatMap((messages) => messages.otherPrefixes.map(prefixForm))),
].filter((prefix) => prefix !== "");
const prefixScanLimit = 4 * otherPrefixes.reduce((max, prefix) => Math.max(max, prefix.length), 0) + 8;

/**
 * The comparison key of a reply or a label: keycap digits made plain, then `compareKey` (NFKC, spaces
 * folded, case folded, surrounding quotes and a trailing `(Recommended)` removed).
 *
 * @example
 * keyOf(' "Staging (Recommended)" '); // "staging"
 * keyOf("2️⃣"); // "2"
 */
export function keyOf(text: string): string {
  if (PLAIN_ASCII.test(text)) {
    // The usual reply: no quotes around it, no `(Recommended)` after it, no double spaces in it. Its
    // key is then just the text trimmed and lower-cased (what `compareKey` would give, with less work).
    const trimmed = text.trim();
    const first = trimmed.charCodeAt(0);
    const plain = first !== 0x22 && first !== 0x27 && first !== 0x60; // " ' `
    if (plain && !trimmed.endsWith(")") && !trimmed.includes("  ")) return trimmed.toLowerCase();
    return compareKey(text);
  }
  return compareKey(replaceKeycaps(text));
}

/** How many multi-select separators `text` has. */
export function countSeparators(text: string): number {
  return text.match(SEPARATORS_ALL)?.length ?? 0;
}

function prefixForm(text: string): string {
  return text.normalize("NFKC").toLocaleLowerCase("en-US").replace(/\s+/gu, "");
}

/** True when some other-prefix starts with `form` (a longer text could still match one). */
function startsSomePrefix(form: string): boolean {
  for (const prefix of otherPrefixes) if (prefix.startsWith(form)) return true;
  return false;
}

/** The text after a leading other-prefix (`other:`, `sonstiges:`; any case), or `undefined`. */
export function afterOtherPrefix(text: string): string | undefined {
  const limit = Math.min(text.length, prefixScanLimit);
  if (PLAIN_ASCII.test(text)) {
    // Printable ASCII is its own NFKC form and has no white space but the plain space: the prefix form
    // of each beginning is the one before plus the next character, lower-cased (spaces dropped).
    let form = "";
    for (let end = 1; end <= limit; end++) {
      const code = text.charCodeAt(end - 1);
      if (code === 0x20) continue;
      form += code >= 0x41 && code <= 0x5a ? String.fromCharCode(code + 0x20) : text.charAt(end - 1);
      if (!startsSomePrefix(form)) return undefined;
      if (otherPrefixes.includes(form)) return text.slice(end).trim();
    }
    return undefined;
  }
  for (let end = 1; end <= limit; end++) {
    if (otherPrefixes.includes(prefixForm(text.slice(0, end)))) return text.slice(end).trim();
  }
  return undefined;
}

/** True for the characters a multi-select reply is split on (as `SEPARATORS_ALL` counts them). */
export function isSeparator(code: number): boolean {
  switch (code) {
    case 0x2c: // ,
    case 0x3b: // ;
    case 0xff0c: // ，
    case 0xff1b: // ；
    case 0x3001: // 、
    case 0x0d:
    case 0x0a:
    case 0x2028:
    case 0x2029:
      return true;
    default:
      return false;
  }
}

/** True when `key` (see `keyOf`) is a skip word of any catalogue. */
export function isSkipWord(key: string): boolean {
  return skipKeys.has(key);
}

/** A whole number, as typed (digits only). */
export const NUMBER = /^[0-9]+$/;

/** What reading a reply needs to know of a question, worked out once per question. */
export interface QuestionView {
  question: PromptQuestion;
  /** Each option's label as authored, in option order. */
  labels: string[];
  /** Comparison key of each option label, in option order. */
  keys: string[];
  /** True when some label is a bare number: numbers then match labels only. */
  numeric: boolean;
  /** How many separator-split parts a label can span (labels may contain commas). */
  window: number;
}

const views = new WeakMap<PromptQuestion, QuestionView>();

/** The view of `question` (cached for as long as the question object lives). */
export function viewOf(question: PromptQuestion): QuestionView {
  let view = views.get(question);
  if (!view) {
    view = computeView(question);
    views.set(question, view);
  }
  return view;
}

function computeView(question: PromptQuestion): QuestionView {
  const keys = question.options.map((option) => keyOf(option.label));
  const separators = question.options.map((option) =>
    Math.max(countSeparators(option.label), countSeparators(option.label.normalize("NFKC"))),
  );
  return {
    question,
    labels: question.options.map((option) => option.label),
    keys,
    numeric: keys.some((key) => NUMBER.test(key)),
    window: 1 + separators.reduce((max, count) => Math.max(max, count), 0),
  };
}
