/**
 * The transitions of a question record: what an answer, a draft or an ending does to the record as it is
 * stored now. Each one changes the record it is given and returns it — the broker hands every attempt of
 * its compare-and-set (`BrokerContext.act`) a private copy, so nothing shared is touched — and none reads
 * the clock or does I/O (`now` is passed in).
 */
import type { Actor, Answers, QuestionRecord } from "../model/types.ts";

/** A final state to move a pending record to. */
export type Resolution =
  | { status: "answered"; answers: Answers; actor: Actor }
  | { status: "skipped"; actor: Actor }
  | { status: "expired" }
  | { status: "cancelled"; actor?: Actor }
  | { status: "undeliverable"; error: string };

/**
 * Applies answers (a draft merged with what was just given) to the current record: answered when every
 * question has a value, else the draft grows (the text stepper). Changes and returns `record`.
 */
export function applyAnswers(
  record: QuestionRecord,
  answers: Answers,
  actor: Actor,
  now: number,
): QuestionRecord {
  const complete = record.prompt.questions.every((q) => answers[q.id] !== undefined);
  if (complete) return finish(record, { status: "answered", answers, actor }, now);
  record.draft = answers;
  delete record.awaitingText;
  return record;
}

/** Moves a record to a final state: changes and returns `record`. */
export function finish(record: QuestionRecord, resolution: Resolution, at: number): QuestionRecord {
  record.status = resolution.status;
  record.resolvedAt = at;
  delete record.awaitingText;
  if (resolution.status === "answered") {
    record.answers = resolution.answers;
    delete record.draft;
  }
  if ("actor" in resolution && resolution.actor) record.resolvedBy = resolution.actor;
  if (resolution.status === "undeliverable") record.error = resolution.error;
  return record;
}

/** A deep copy of plain JSON data (objects, arrays, strings, numbers, booleans, null). */
function copyData<T>(value: T): T {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map(copyData) as T;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) copy[key] = copyData((value as Record<string, unknown>)[key]);
  return copy as T;
}

/**
 * The record as it was before a change, kept beside the one a change function works on: a deep copy,
 * except for the parts that are fixed when the question is created and that no transition changes —
 * the prompt, the action tokens and the answerer policy — which the two share. A fraction of
 * `structuredClone`'s cost, which was most of a transition's own time on the answer route.
 */
export function keepBefore(record: QuestionRecord): QuestionRecord {
  const copy = {} as Record<string, unknown>;
  for (const key of Object.keys(record) as (keyof QuestionRecord)[]) {
    const value = record[key];
    copy[key] = key === "prompt" || key === "tokens" || key === "answerers" ? value : copyData(value);
  }
  return copy as unknown as QuestionRecord;
}
