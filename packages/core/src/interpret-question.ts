/**
 * Reading the part of a plain-text reply that answers one question (SPEC §7): labels, numbers, keycaps,
 * `other:`, skip words and the multi-select split. Pure. The prompt-level rules (lines, keys, draft)
 * live in `interpret.ts`.
 */
import { type Locale, type Messages, messagesFor } from "./i18n.ts";
import type { PromptQuestion } from "./schema.ts";
import { compareKey, replaceKeycaps, tidy } from "./text.ts";

/** What one question's part of a reply says: its values, a request to skip the prompt, or a problem. */
export type AnswerReading =
  | { kind: "values"; values: string[] }
  | { kind: "skip" }
  | { kind: "invalid"; message: string };

type Piece =
  | { kind: "option"; index: number }
  | { kind: "free"; text: string; forced: boolean }
  | { kind: "skip" }
  | { kind: "invalid"; message: string };

interface QuestionView {
  question: PromptQuestion;
  /** Comparison key of each option label, in option order. */
  keys: string[];
  /** True when some label is a bare number: numbers then match labels only. */
  numeric: boolean;
  /** How many separator-split parts a label can span (labels may contain commas). */
  window: number;
}

const NUMBER = /^[0-9]+$/;
const SEPARATOR = /([,;，；、\r\n\u2028\u2029])/u;
const SEPARATORS_ALL = /[,;，；、\r\n\u2028\u2029]/gu;
const SHOWN_DIGITS_MAX = 12;

// Every catalogue's words count in every chat: a German user writing "skip" is understood, and so is
// an English user writing "überspringen". The record makes a new locale a compile error here.
const LOCALES: Record<Locale, true> = { en: true, de: true };
const catalogues = Object.keys(LOCALES).map((locale) => messagesFor(locale));
const skipKeys = new Set(catalogues.flatMap((messages) => messages.skipWords.map(keyOf)));
const otherPrefixes = [
  ...new Set(catalogues.flatMap((messages) => messages.otherPrefixes.map(prefixForm))),
].filter((prefix) => prefix !== "");
/** The first characters of the other-prefixes (`o`, `s`), for a quick refusal. */
const prefixStarts = new Set(otherPrefixes.map((prefix) => prefix.charAt(0)));
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
  return compareKey(replaceKeycaps(text));
}

/**
 * True when `text` alone is a skip word of any catalogue (`skip`, `/skip`, `überspringen`) and no
 * option label of `question` reads the same (a label "Skip" is an answer, not a skip).
 *
 * @example
 * isSkipReply("/skip"); // true
 * isSkipReply("Skip", question); // false when one of the question's labels is "Skip"
 */
export function isSkipReply(text: string, question?: PromptQuestion): boolean {
  const key = keyOf(text);
  if (!skipKeys.has(key)) return false;
  return question === undefined || !question.options.some((option) => keyOf(option.label) === key);
}

/**
 * Reads one question's part of a reply. `texts` is usually one text; several (lines keyed to the same
 * question) are merged for a multi-select question and refused for a single-select one. Values are
 * the canonical labels in option order, then free text as typed (trimmed), without duplicates.
 *
 * @example
 * readAnswer(question, ["2"], messagesFor("en")); // { kind: "values", values: ["Production"] }
 * readAnswer(question, ["other: a canary"], messagesFor("en")); // { kind: "values", values: ["a canary"] }
 */
export function readAnswer(
  question: PromptQuestion,
  texts: readonly string[],
  messages: Messages,
): AnswerReading {
  if (!question.multiSelect && texts.length > 1) return invalid(messages.invalidOneLine(question.header));
  const view = viewOf(question);
  const pieces: Piece[] = [];
  for (const text of texts) {
    if (question.multiSelect) {
      for (const piece of readMulti(view, text, messages)) pieces.push(piece);
    } else {
      const piece = readPiece(view, text, messages);
      if (piece !== undefined) pieces.push(piece);
    }
  }
  return finish(view, pieces, messages);
}

// Prompts are values that do not change once normalised: each question's view is worked out once.
const views = new WeakMap<PromptQuestion, QuestionView>();

function viewOf(question: PromptQuestion): QuestionView {
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
    keys,
    numeric: keys.some((key) => NUMBER.test(key)),
    window: 1 + separators.reduce((max, count) => Math.max(max, count), 0),
  };
}

function countSeparators(text: string): number {
  return text.match(SEPARATORS_ALL)?.length ?? 0;
}

function invalid(message: string): { kind: "invalid"; message: string } {
  return { kind: "invalid", message };
}

function prefixForm(text: string): string {
  return text.normalize("NFKC").toLocaleLowerCase("en-US").replace(/\s+/gu, "");
}

/** The text after a leading other-prefix (`other:`, `sonstiges:`; any case), or `undefined`. */
export function afterOtherPrefix(text: string): string | undefined {
  // Quick answer for the usual reply: plain ASCII whose first letter starts no prefix.
  if (/^[\x20-\x7e]*$/.test(text)) {
    const first = text.trimStart().charAt(0).toLowerCase();
    if (!prefixStarts.has(first)) return undefined;
  }
  const limit = Math.min(text.length, prefixScanLimit);
  for (let end = 1; end <= limit; end++) {
    if (otherPrefixes.includes(prefixForm(text.slice(0, end)))) return text.slice(end).trim();
  }
  return undefined;
}

function withoutLeadingZeros(digits: string): string {
  return digits.replace(/^0+(?=[0-9])/u, "");
}

/** Rules 1-4 of SPEC §7 for one piece of text; `undefined` when it is blank. */
function readPiece(view: QuestionView, raw: string, messages: Messages): Piece | undefined {
  const text = raw.trim();
  const key = keyOf(text);
  if (key === "") return undefined;
  const label = view.keys.indexOf(key);
  if (label >= 0) return { kind: "option", index: label };
  const rest = afterOtherPrefix(text);
  if (rest !== undefined) {
    return keyOf(rest) === ""
      ? invalid(messages.invalidOtherEmpty)
      : { kind: "free", text: rest, forced: true };
  }
  if (NUMBER.test(key)) return readNumber(view, key, text, messages);
  if (skipKeys.has(key)) return { kind: "skip" };
  return { kind: "free", text, forced: false };
}

function readNumber(view: QuestionView, digits: string, text: string, messages: Messages): Piece {
  const value = withoutLeadingZeros(digits);
  if (view.numeric) {
    const index = view.keys.findIndex((key) => NUMBER.test(key) && withoutLeadingZeros(key) === value);
    return index >= 0 ? { kind: "option", index } : { kind: "free", text, forced: false };
  }
  const count = view.question.options.length;
  const number = value.length <= 3 ? Number(value) : Number.POSITIVE_INFINITY;
  if (number >= 1 && number <= count) return { kind: "option", index: number - 1 };
  const shown = value.length > SHOWN_DIGITS_MAX ? `${value.slice(0, SHOWN_DIGITS_MAX)}…` : value;
  return invalid(messages.invalidNumber(shown, count));
}

/** A multi-select reply: the whole text as one label first, then split into parts. */
function readMulti(view: QuestionView, text: string, messages: Messages): Piece[] {
  const whole = readPiece(view, text, messages);
  if (whole === undefined) return [];
  if (whole.kind !== "free" || whole.forced) return [whole];
  const tokens = text.split(SEPARATOR);
  const parts = tokens.filter((_, index) => index % 2 === 0);
  const separators = tokens.filter((_, index) => index % 2 === 1);
  const pieces: Piece[] = [];
  let at = 0;
  while (at < parts.length) {
    const joined = joinedLabel(view, parts, separators, at);
    if (joined !== undefined) {
      pieces.push({ kind: "option", index: joined.index });
      at += joined.width;
      continue;
    }
    for (const piece of readPart(view, parts[at] ?? "", messages)) pieces.push(piece);
    at++;
  }
  return pieces;
}

/** The longest run of parts from `start` (two or more) that, rejoined, is a label containing separators. */
function joinedLabel(
  view: QuestionView,
  parts: readonly string[],
  separators: readonly string[],
  start: number,
): { index: number; width: number } | undefined {
  for (let width = Math.min(view.window, parts.length - start); width >= 2; width--) {
    let joined = parts[start] ?? "";
    for (let offset = 1; offset < width; offset++) {
      joined += (separators[start + offset - 1] ?? "") + (parts[start + offset] ?? "");
    }
    const index = view.keys.indexOf(keyOf(joined));
    if (index >= 0) return { index, width };
  }
  return undefined;
}

/** One comma-separated part: a label, `1 3` (numbers separated by spaces), or a piece as usual. */
function readPart(view: QuestionView, part: string, messages: Messages): Piece[] {
  const piece = readPiece(view, part, messages);
  if (piece === undefined) return [];
  if (piece.kind !== "free" || piece.forced) return [piece];
  const words = tidy(replaceKeycaps(part)).split(" ");
  if (words.length < 2 || !words.every((word) => NUMBER.test(word))) return [piece];
  return words.map((word) => readNumber(view, word, word, messages));
}

/**
 * Options in option order, then free text in the order given; duplicates (by comparison key) dropped.
 * Text forced by `other:` that is exactly a label is that option: the value would read the same anyway.
 */
function finish(view: QuestionView, pieces: readonly Piece[], messages: Messages): AnswerReading {
  const problem = pieces.find((piece) => piece.kind === "invalid");
  if (problem !== undefined) return problem;
  if (pieces.some((piece) => piece.kind === "skip")) {
    return pieces.length === 1 ? { kind: "skip" } : invalid(messages.invalidSkipAlone);
  }
  const labels = view.question.options.map((option) => option.label);
  const chosen = new Set<number>();
  for (const piece of pieces) {
    if (piece.kind === "option") chosen.add(piece.index);
    else if (piece.kind === "free" && labels.includes(piece.text)) chosen.add(labels.indexOf(piece.text));
  }
  const seen = new Set(view.keys.filter((_, index) => chosen.has(index)));
  const free: string[] = [];
  for (const piece of pieces) {
    if (piece.kind !== "free") continue;
    const key = keyOf(piece.text);
    if (seen.has(key)) continue;
    seen.add(key);
    free.push(piece.text);
  }
  const values = [...labels.filter((_, index) => chosen.has(index)), ...free];
  return values.length === 0 ? invalid(messages.invalidEmpty) : { kind: "values", values };
}
