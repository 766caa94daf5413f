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
  /** `key`: the comparison key of `text`. */
  | { kind: "free"; text: string; key: string; forced: boolean }
  | { kind: "skip" }
  | { kind: "invalid"; message: string };

interface QuestionView {
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

const NUMBER = /^[0-9]+$/;
const SEPARATORS_ALL = /[,;，；、\r\n\u2028\u2029]/gu;
const SHOWN_DIGITS_MAX = 12;
/** Printable ASCII: its own NFKC form, no keycaps, and no white space but the plain space. */
const PLAIN_ASCII = /^[\x20-\x7e]*$/;

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

/**
 * True when `text` alone is a skip word of any catalogue (`skip`, `/skip`, `überspringen`) and no
 * option label of `question` reads the same (a label "Skip" is an answer, not a skip).
 *
 * @example
 * isSkipReply("/skip"); // true
 * isSkipReply("Skip", question); // false when one of the question's labels is "Skip"
 */
export function isSkipReply(text: string, question?: PromptQuestion): boolean {
  return isSkipKey(keyOf(text), question);
}

/** {@link isSkipReply} for a text whose comparison key (`keyOf`) is already known. */
export function isSkipKey(key: string, question?: PromptQuestion): boolean {
  if (!skipKeys.has(key)) return false;
  return question === undefined || !viewOf(question).keys.includes(key);
}

/**
 * Reads one question's part of a reply. `texts` is usually one text; several (lines keyed to the same
 * question) are merged for a multi-select question and refused for a single-select one. Values are
 * the canonical labels in option order, then free text as typed (trimmed), without duplicates.
 * `keys`, when given, holds each text's comparison key (`keyOf`), the texts being trimmed already.
 *
 * @example
 * readAnswer(question, ["2"], messagesFor("en")); // { kind: "values", values: ["Production"] }
 * readAnswer(question, ["other: a canary"], messagesFor("en")); // { kind: "values", values: ["a canary"] }
 */
export function readAnswer(
  question: PromptQuestion,
  texts: readonly string[],
  messages: Messages,
  keys?: readonly string[],
): AnswerReading {
  if (!question.multiSelect && texts.length > 1) return invalid(messages.invalidOneLine(question.header));
  const view = viewOf(question);
  const pieces: Piece[] = [];
  for (let i = 0; i < texts.length; i++) {
    const text = texts[i] as string;
    const key = keys?.[i];
    if (question.multiSelect) {
      readMulti(view, text, messages, key, pieces);
    } else {
      const piece = readPiece(view, text, messages, key);
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
    labels: question.options.map((option) => option.label),
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

function withoutLeadingZeros(digits: string): string {
  return digits.replace(/^0+(?=[0-9])/u, "");
}

/**
 * Rules 1-4 of SPEC §7 for one piece of text; `undefined` when it is blank. `knownKey` is the text's
 * comparison key when the caller has it (the text is then trimmed already).
 */
function readPiece(
  view: QuestionView,
  raw: string,
  messages: Messages,
  knownKey?: string,
): Piece | undefined {
  const text = knownKey === undefined ? raw.trim() : raw;
  const key = knownKey ?? keyOf(text);
  if (key === "") return undefined;
  const label = view.keys.indexOf(key);
  if (label >= 0) return { kind: "option", index: label };
  const rest = afterOtherPrefix(text);
  if (rest !== undefined) {
    const restKey = keyOf(rest);
    return restKey === ""
      ? invalid(messages.invalidOtherEmpty)
      : { kind: "free", text: rest, key: restKey, forced: true };
  }
  if (NUMBER.test(key)) return readNumber(view, key, text, key, messages);
  if (skipKeys.has(key)) return { kind: "skip" };
  return { kind: "free", text, key, forced: false };
}

/** A number: the option it picks, or (numeric labels) free text `text` whose key is `key`. */
function readNumber(
  view: QuestionView,
  digits: string,
  text: string,
  key: string,
  messages: Messages,
): Piece {
  const value = withoutLeadingZeros(digits);
  if (view.numeric) {
    const index = view.keys.findIndex((k) => NUMBER.test(k) && withoutLeadingZeros(k) === value);
    return index >= 0 ? { kind: "option", index } : { kind: "free", text, key, forced: false };
  }
  const count = view.question.options.length;
  const number = value.length <= 3 ? Number(value) : Number.POSITIVE_INFINITY;
  if (number >= 1 && number <= count) return { kind: "option", index: number - 1 };
  const shown = value.length > SHOWN_DIGITS_MAX ? `${value.slice(0, SHOWN_DIGITS_MAX)}…` : value;
  return invalid(messages.invalidNumber(shown, count));
}

/** True for the characters a multi-select reply is split on (as `SEPARATORS_ALL` counts them). */
function isSeparator(code: number): boolean {
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

/** A multi-select reply, into `pieces`: the whole text as one label first, then split into parts. */
function readMulti(
  view: QuestionView,
  text: string,
  messages: Messages,
  key: string | undefined,
  pieces: Piece[],
): void {
  const whole = readPiece(view, text, messages, key);
  if (whole === undefined) return;
  if (whole.kind !== "free" || whole.forced) {
    pieces.push(whole);
    return;
  }
  const parts: string[] = [];
  const separators: string[] = [];
  let start = 0;
  for (let at = 0; at < text.length; at++) {
    if (!isSeparator(text.charCodeAt(at))) continue;
    parts.push(text.slice(start, at));
    separators.push(text.charAt(at));
    start = at + 1;
  }
  if (parts.length === 0) {
    // Nothing to split: the one part reads as the whole did.
    readWords(view, text, whole, messages, pieces);
    return;
  }
  parts.push(text.slice(start));
  let at = 0;
  while (at < parts.length) {
    const joined = joinedLabel(view, parts, separators, at);
    if (joined !== undefined) {
      pieces.push({ kind: "option", index: joined.index });
      at += joined.width;
      continue;
    }
    const part = parts[at] ?? "";
    const piece = readPiece(view, part, messages);
    if (piece !== undefined) readWords(view, part, piece, messages, pieces);
    at++;
  }
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

/** Numbers separated by spaces in printable ASCII (`1 3`). */
const ASCII_NUMBER_WORDS = /^ *[0-9]+(?: +[0-9]+)+ *$/;

/**
 * One comma-separated part, read as `piece`, into `pieces`: `1 3` (numbers separated by spaces) is
 * several numbers; anything else is the piece.
 */
function readWords(
  view: QuestionView,
  part: string,
  piece: Piece,
  messages: Messages,
  pieces: Piece[],
): void {
  if (piece.kind !== "free" || piece.forced) {
    pieces.push(piece);
    return;
  }
  let words: string[];
  if (PLAIN_ASCII.test(part)) {
    // Printable ASCII is its own NFKC form, with no keycaps and no white space but the plain space.
    if (!ASCII_NUMBER_WORDS.test(part)) {
      pieces.push(piece);
      return;
    }
    words = part.trim().split(/ +/u);
  } else {
    words = tidy(replaceKeycaps(part)).split(" ");
    if (words.length < 2 || !words.every((word) => NUMBER.test(word))) {
      pieces.push(piece);
      return;
    }
  }
  for (const word of words) pieces.push(readNumber(view, word, word, word, messages));
}

/**
 * Options in option order, then free text in the order given; duplicates (by comparison key) dropped.
 * Text forced by `other:` that is exactly a label is that option: the value would read the same anyway.
 */
function finish(view: QuestionView, pieces: readonly Piece[], messages: Messages): AnswerReading {
  let skip = false;
  let free = false;
  for (const piece of pieces) {
    if (piece.kind === "invalid") return piece;
    if (piece.kind === "skip") skip = true;
    else if (piece.kind === "free") free = true;
  }
  if (skip) return pieces.length === 1 ? { kind: "skip" } : invalid(messages.invalidSkipAlone);
  const labels = view.labels;
  const chosen: boolean[] = [];
  for (const piece of pieces) {
    if (piece.kind === "option") chosen[piece.index] = true;
    else if (piece.kind === "free") {
      const index = labels.indexOf(piece.text);
      if (index >= 0) chosen[index] = true;
    }
  }
  const values: string[] = [];
  for (let index = 0; index < labels.length; index++) if (chosen[index]) values.push(labels[index] as string);
  if (free) {
    const seen = new Set<string>();
    for (let index = 0; index < labels.length; index++)
      if (chosen[index]) seen.add(view.keys[index] as string);
    for (const piece of pieces) {
      if (piece.kind !== "free" || seen.has(piece.key)) continue;
      seen.add(piece.key);
      values.push(piece.text);
    }
  }
  return values.length === 0 ? invalid(messages.invalidEmpty) : { kind: "values", values };
}
