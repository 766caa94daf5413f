/**
 * Reading the part of a plain-text reply that answers one question (SPEC §7): labels, numbers, keycaps,
 * `other:`, skip words and the multi-select split. Pure. The prompt-level rules (lines, keys, draft)
 * live in `interpret.ts`.
 */
import type { Messages } from "../prompt/i18n.ts";
import { replaceKeycaps, tidy } from "../prompt/text.ts";
import type { PromptQuestion } from "../schema/schema.ts";
import {
  afterOtherPrefix,
  isSeparator,
  isSkipWord,
  keyOf,
  NUMBER,
  PLAIN_ASCII,
  type QuestionView,
  viewOf,
} from "./words.ts";

export { afterOtherPrefix, keyOf };

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

const SHOWN_DIGITS_MAX = 12;

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
  if (!isSkipWord(key)) return false;
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
function invalid(message: string): { kind: "invalid"; message: string } {
  return { kind: "invalid", message };
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
  if (isSkipWord(key)) return { kind: "skip" };
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
