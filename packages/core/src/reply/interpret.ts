/**
 * The plain-text reply parser (SPEC §7): turns a reply typed by a person into answers, a skip, or a
 * message saying what to fix. Pure: no clock, no store, never throws.
 */

import type { Answers } from "../model/types.ts";
import { type Messages, messagesFor } from "../prompt/i18n.ts";
import type { Prompt, PromptQuestion } from "../schema/schema.ts";
import { isSkipKey, keyOf, readAnswer } from "./interpret-question.ts";

/** What a plain-text reply says about a prompt. */
export type ReplyInterpretation =
  /** Every question answered so far (draft included); `complete` when none is missing. */
  | { kind: "answers"; answers: Answers; complete: boolean }
  /** The person declined the whole prompt. */
  | { kind: "skip" }
  /** The reply cannot be read; `message` (from the catalogue) says why. The question stays open. */
  | { kind: "invalid"; message: string };

/** Longer replies are refused before any work is done (no platform message comes near it). */
const REPLY_MAX_LENGTH = 20_000;
/** Keys are ids (at most 64 characters) or headers (12 graphemes): a separator further in is a value. */
const KEY_SCAN_LIMIT = 200;
const LINE_BREAK = /\r\n|[\n\r\u2028\u2029]/u;
const NUMBER = /^[0-9]+$/;
/** Cheap pre-checks that spare the usual reply the full splitting. */
const HAS_LINE_BREAK = /[\n\r\u2028\u2029]/;
const HAS_ANSWER_BREAK = /[;；/]/;
/** Where a one-line reply may start its next keyed answer (checked by `splitOneLine`). */
const ANSWER_BREAK = /[;；]|\s\/\s/gu;

/**
 * Interprets a plain-text reply to a prompt (SPEC §7).
 *
 * One question: a label, an option number, `skip`, `other: …`, or free text. Multi-select: several of
 * those separated by commas, semicolons or new lines. Several questions: one line per question, either
 * keyed (`2: Staging`, `region = eu`, `Target) 1`) or plain (filling the unanswered questions in order);
 * `draft` holds the answers of earlier replies (the text stepper) and is part of the result.
 *
 * Values are canonical labels as authored (with any `(Recommended)`) in option order, then free text
 * as typed. Messages are in `options.locale` (English by default).
 *
 * @example
 * // prompt: target (Staging (Recommended) | Production), regions (multi-select: eu-west | us-east)
 * interpretReply(prompt, "1: 2\nregions = eu-west, us-east");
 * // { kind: "answers", answers: { target: ["Production"], regions: ["eu-west", "us-east"] }, complete: true }
 * interpretReply(prompt, "staging"); // { kind: "answers", answers: { target: ["Staging (Recommended)"] }, complete: false }
 * interpretReply(prompt, "eu-west", { target: ["Staging (Recommended)"] }); // complete: true
 * interpretReply(prompt, "skip"); // { kind: "skip" }
 * interpretReply(prompt, "1: 7", undefined, { locale: "de" }); // { kind: "invalid", message: "Target: Es gibt keine Option 7: …" }
 */
export function interpretReply(
  prompt: Prompt,
  text: string,
  draft?: Answers,
  options?: { locale?: string },
): ReplyInterpretation {
  const messages = messagesFor(options?.locale);
  if (typeof text !== "string") return { kind: "invalid", message: messages.invalidEmpty };
  if (text.length > REPLY_MAX_LENGTH) {
    return { kind: "invalid", message: messages.invalidTooLong(REPLY_MAX_LENGTH) };
  }
  const questions = prompt.questions;
  if (questions.length === 1) {
    const only = questions[0] as PromptQuestion;
    const reading = readAnswer(only, [text], messages);
    if (reading.kind !== "values") return reading;
    return { kind: "answers", answers: { [only.id]: reading.values }, complete: true };
  }
  return interpretSeveral(questions, text, draftValues(questions, draft), messages);
}

/** The non-blank lines of a reply (trimmed), one-line keyed answers split apart, each with its key. */
function replyLines(text: string, questions: readonly PromptQuestion[]): { lines: string[]; keys: string[] } {
  const found = { lines: [] as string[], keys: [] as string[] };
  for (const line of HAS_LINE_BREAK.test(text) ? text.split(LINE_BREAK) : [text]) {
    if (HAS_ANSWER_BREAK.test(line)) for (const part of splitOneLine(line, questions)) addLine(found, part);
    else addLine(found, line);
  }
  return found;
}

/** Adds `part` (trimmed) and its key to `found`, unless it is blank. */
function addLine(found: { lines: string[]; keys: string[] }, part: string): void {
  const line = part.trim();
  const key = keyOf(line);
  if (key === "") return;
  found.lines.push(line);
  found.keys.push(key);
}

function interpretSeveral(
  questions: readonly PromptQuestion[],
  text: string,
  known: readonly (string[] | undefined)[],
  messages: Messages,
): ReplyInterpretation {
  const { lines, keys } = replyLines(text, questions);
  if (lines.length === 0) return { kind: "invalid", message: messages.invalidEmpty };

  // By question index: the lines keyed to it (with their keys), then the plain lines it gets.
  const texts: (string[] | undefined)[] = [];
  const textKeys: string[][] = [];
  const plain: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const split = splitKey(line, questions);
    if (split === undefined) {
      plain.push(i);
      continue;
    }
    const key = keyOf(split.value);
    if (key === "") continue;
    const values = texts[split.index];
    if (values === undefined) {
      texts[split.index] = [split.value];
      textKeys[split.index] = [key];
    } else {
      values.push(split.value);
      textKeys[split.index]?.push(key);
    }
  }
  const open: number[] = [];
  for (let index = 0; index < questions.length; index++) {
    if (known[index] === undefined && texts[index] === undefined) open.push(index);
  }
  const onlyLine = plain[0];
  if (lines.length === 1 && onlyLine !== undefined) {
    const firstOpen = open[0] === undefined ? undefined : questions[open[0]];
    if (isSkipKey(keys[onlyLine] as string, firstOpen)) return { kind: "skip" };
  }
  if (plain.length > open.length) {
    return { kind: "invalid", message: messages.invalidTooManyLines(plain.length, open.length) };
  }
  for (let position = 0; position < plain.length; position++) {
    const index = open[position] as number;
    const line = plain[position] as number;
    texts[index] = [lines[line] as string];
    textKeys[index] = [keys[line] as string];
  }

  const given: (string[] | undefined)[] = [];
  let answered = 0;
  for (let index = 0; index < questions.length; index++) {
    const values = texts[index];
    if (values === undefined) continue;
    const question = questions[index] as PromptQuestion;
    if (!question.multiSelect && values.length > 1) {
      return { kind: "invalid", message: messages.invalidOneLine(question.header) };
    }
    const reading = readAnswer(question, values, messages, textKeys[index]);
    if (reading.kind === "skip") return { kind: "invalid", message: messages.invalidSkipAlone };
    if (reading.kind === "invalid")
      return { kind: "invalid", message: forQuestion(question, reading.message) };
    given[index] = reading.values;
    answered++;
  }
  if (answered === 0) return { kind: "invalid", message: messages.invalidEmpty };

  const answers: Answers = {};
  let complete = true;
  for (let index = 0; index < questions.length; index++) {
    const values = given[index] ?? known[index];
    if (values === undefined) complete = false;
    else answers[(questions[index] as PromptQuestion).id] = values;
  }
  return { kind: "answers", answers, complete };
}

/**
 * The one-line keyed form (SPEC §7: `1: 2; 2: EU, Asia`, where Enter sends the message): a `;` (or the
 * ` / ` of older prompts' example) followed by a KEY and separator starts the next keyed answer. Any
 * other `;` stays in the value (a multi-select list).
 */
function splitOneLine(line: string, questions: readonly PromptQuestion[]): string[] {
  if (!HAS_ANSWER_BREAK.test(line)) return [line];
  const parts: string[] = [];
  let start = 0;
  for (const match of line.matchAll(ANSWER_BREAK)) {
    const at = match.index;
    const rest = line.slice(at + match[0].length).trimStart();
    if (splitKey(rest, questions) === undefined) continue;
    parts.push(line.slice(start, at));
    start = at + match[0].length;
  }
  parts.push(line.slice(start));
  return parts;
}

/** Says which question a problem is about. */
function forQuestion(question: PromptQuestion, message: string): string {
  return question.header === "" ? message : `${question.header}: ${message}`;
}

/**
 * A key separator (`:` `=` `)` and their full-width forms): 2 when it is tight (`=` `)`), 1 when not. A
 * numeric key needs a tight one, or a separator followed by a space (so `1:30pm` is a value).
 */
function separatorAt(line: string, at: number): 0 | 1 | 2 {
  switch (line.charCodeAt(at)) {
    case 0x3a: // :
    case 0xff1a: // ：
      return 1;
    case 0x3d: // =
    case 0x29: // )
    case 0xff1d: // ＝
    case 0xff09: // ）
      return 2;
    default:
      return 0;
  }
}

/** Starts with white space (as `/^\s/u` reads it). */
const LEADING_SPACE = /^\s/u;

/**
 * `KEY: value`, `KEY = value` or `KEY) value`, where KEY is a question's 1-based number, id or header.
 * The first separator whose left side names a question wins; `undefined` when none does.
 */
function splitKey(
  line: string,
  questions: readonly PromptQuestion[],
): { index: number; value: string } | undefined {
  const limit = Math.min(line.length, KEY_SCAN_LIMIT);
  for (let at = 0; at < limit; at++) {
    const separator = separatorAt(line, at);
    if (separator === 0) continue;
    const key = keyOf(line.slice(0, at));
    if (key === "") continue;
    const value = line.slice(at + 1);
    const spaced = separator === 2 || value === "" || LEADING_SPACE.test(value);
    const index = questionIndex(questions, key, spaced);
    if (index !== undefined) return { index, value: value.trim() };
  }
  return undefined;
}

/** The questions' ids and headers as reply keys, worked out once per prompt. */
const promptKeys = new WeakMap<readonly PromptQuestion[], { ids: string[]; headers: string[] }>();

function keysOf(questions: readonly PromptQuestion[]): { ids: string[]; headers: string[] } {
  let keys = promptKeys.get(questions);
  if (!keys) {
    keys = { ids: questions.map((q) => keyOf(q.id)), headers: questions.map((q) => keyOf(q.header)) };
    promptKeys.set(questions, keys);
  }
  return keys;
}

function questionIndex(
  questions: readonly PromptQuestion[],
  key: string,
  spaced: boolean,
): number | undefined {
  if (NUMBER.test(key)) {
    if (!spaced) return undefined;
    const number = key.length <= 3 ? Number(key) : 0;
    if (number >= 1 && number <= questions.length) return number - 1;
  }
  const { ids, headers } = keysOf(questions);
  const byId = ids.indexOf(key);
  if (byId >= 0) return byId;
  const byHeader = headers.indexOf(key);
  return byHeader >= 0 ? byHeader : undefined;
}

/** The draft's answers to this prompt's questions, by question index; anything malformed is ignored. */
function draftValues(questions: readonly PromptQuestion[], draft: unknown): (string[] | undefined)[] {
  const known: (string[] | undefined)[] = [];
  if (typeof draft !== "object" || draft === null) return known;
  for (const [index, question] of questions.entries()) {
    if (!Object.hasOwn(draft, question.id)) continue;
    const value: unknown = (draft as Record<string, unknown>)[question.id];
    if (!Array.isArray(value)) continue;
    const strings = value.filter((item): item is string => typeof item === "string" && item.trim() !== "");
    if (strings.length > 0) known[index] = [...new Set(strings)];
  }
  return known;
}
