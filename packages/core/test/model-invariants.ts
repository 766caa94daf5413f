/**
 * The lifecycle invariants (SPEC §4), checked against the model after every command and at the end:
 * one terminal state that never changes, no answer lost that a person was told was recorded, only
 * values people gave reach the agent, one winner per question, and every ended prompt shows its summary.
 */

import { type Answers, isTerminal, type QuestionRecord, resultOf } from "../src/model/types.ts";
import { renderSummary } from "../src/prompt/render.ts";
import { idleAll, type ModelQuestion, type World } from "./model-world.ts";

/** What one command did, as the person (or operator) who ran it was told. */
export interface Effect {
  question: ModelQuestion | undefined;
  /** Per question id, the values this command gave (recorded only when `recorded`). */
  gave: Map<string, string[]>;
  /** The outcome said the answer was recorded (`partial` or `answered`). */
  recorded: boolean;
  /** The outcome told this caller they ended the question. */
  win: "answered" | "skipped" | "cancelled" | undefined;
  /** The command answered every question of the prompt (a final answer, whatever the draft). */
  final: boolean;
  /** The outcome, for messages. */
  outcome: string;
}

export const noEffect = (outcome: string): Effect => ({
  question: undefined,
  gave: new Map(),
  recorded: false,
  win: undefined,
  final: false,
  outcome,
});

class InvariantError extends Error {
  override name = "InvariantError";
}

function fail(message: string): never {
  throw new InvariantError(message);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Updates the model with the effects of one command, or of two that ran concurrently: a recorded
 * answer becomes the latest for its questions; when both racing commands recorded one for the same
 * question, either may be the later one.
 */
export function applyEffects(effects: readonly Effect[]): void {
  const latest = new Map<ModelQuestion, Map<string, string[][]>>();
  for (const effect of effects) {
    const question = effect.question;
    if (!question) continue;
    if (effect.win) question.wins[effect.win]++;
    if (!effect.recorded) continue;
    const perQuestion = latest.get(question) ?? new Map<string, string[][]>();
    latest.set(question, perQuestion);
    for (const [id, values] of effect.gave) perQuestion.set(id, [...(perQuestion.get(id) ?? []), values]);
  }
  for (const [question, perQuestion] of latest) {
    for (const [id, candidates] of perQuestion) question.confirmed.set(id, candidates);
  }
}

/** Two final answers raced on one pending question: exactly one of them was told it answered it. */
export function checkRace(effects: readonly Effect[], pendingBefore: boolean): void {
  const [a, b] = effects;
  if (!a || !b || !pendingBefore || !a.final || !b.final || a.question !== b.question) return;
  const winners = effects.filter((effect) => effect.win === "answered").length;
  if (winners !== 1) {
    fail(
      `two racing final answers to question ${a.question?.id} got ${winners} "answered" outcomes (${a.outcome}, ${b.outcome})`,
    );
  }
}

function checkRecord(question: ModelQuestion, record: QuestionRecord): void {
  const where = `question ${question.id} (${record.status})`;
  const { answered, skipped, cancelled } = question.wins;
  if (answered + skipped + cancelled > 1) fail(`${where}: ${JSON.stringify(question.wins)} winners`);
  const expectedWins = {
    answered: record.status === "answered" ? 1 : 0,
    skipped: record.status === "skipped" ? 1 : 0,
    cancelled: record.status === "cancelled" ? 1 : 0,
  };
  if (!same(question.wins, expectedWins)) {
    fail(`${where}: callers were told ${JSON.stringify(question.wins)}, but the record is ${record.status}`);
  }
  // No confirmed answer lost: it is in the draft, or in the final answers.
  const holder: Answers | undefined = record.status === "answered" ? record.answers : record.draft;
  for (const [id, candidates] of question.confirmed) {
    const kept = holder?.[id];
    if (!candidates.some((values) => same(values, kept))) {
      fail(
        `${where}: "${id}" was confirmed as recorded (${candidates.map((c) => JSON.stringify(c)).join(" or ")}) but the ${record.status === "answered" ? "answers hold" : "draft holds"} ${JSON.stringify(kept)} (draft ${JSON.stringify(record.draft ?? null)}, answers ${JSON.stringify(record.answers ?? null)})`,
      );
    }
  }
  // Every value is a label of its question or a free text someone submitted for it.
  for (const answers of [record.answers, record.draft]) {
    for (const q of record.prompt.questions) {
      const values = answers?.[q.id];
      if (values === undefined) {
        if (answers === record.answers && record.status === "answered")
          fail(`${where}: "${q.id}" has no answer`);
        continue;
      }
      if (values.length === 0 || (!q.multiSelect && values.length !== 1)) {
        fail(`${where}: "${q.id}" has ${JSON.stringify(values)}`);
      }
      const labels = q.options.map((option) => option.label);
      const free = question.freeTexts.get(q.id) ?? new Set();
      const foreign = values.filter((value) => !labels.includes(value) && !free.has(value));
      if (foreign.length > 0) fail(`${where}: "${q.id}" holds ${JSON.stringify(foreign)}, which nobody gave`);
    }
  }
}

/** Checks every invariant that holds between any two commands. */
export async function checkInvariants(world: World): Promise<void> {
  // A closed broker settles every wait, even one that started while its prompt was being delivered.
  await new Promise((resolve) => setImmediate(resolve));
  for (const waiting of world.waits) {
    if (world.closed.has(waiting.broker) && !waiting.settled)
      world.violations.push(`question ${waiting.question}: wait() still waits on a closed broker`);
  }
  const seen = world.violations.splice(0);
  if (seen.length > 0) fail(seen.join("\n"));
  for (const question of world.questions) {
    const record = await world.store.get(question.id);
    if (!record) fail(`question ${question.id} is gone from the store`);
    checkRecord(question, record);
    for (const result of question.results) {
      if (!same(result, resultOf(record))) {
        fail(
          `question ${question.id}: the agent got ${JSON.stringify(result)}, the record says ${record.status}`,
        );
      }
    }
  }
}

/**
 * The end of a run: every deadline passes, every broker finishes its background work; then every
 * question has ended, its delivered prompt reads its summary, and the agent's result matches the record.
 */
export async function checkEnd(world: World): Promise<void> {
  await world.clock.advance(3_600_000 + 1);
  await idleAll(world);
  await checkInvariants(world);
  const errors = world.logger.lines.filter((line) => line.level === "error");
  if (errors.length > 0) fail(`the brokers logged errors: ${JSON.stringify(errors)}`);
  const [broker] = world.brokers;
  for (const question of world.questions) {
    const record = await world.store.get(question.id);
    if (!record || !isTerminal(record.status)) fail(`question ${question.id} never ended`);
    const result = await broker.wait(question.id);
    if (!same(result, resultOf(record))) fail(`question ${question.id}: wait gave ${JSON.stringify(result)}`);
    if (question.messageId === undefined) continue;
    const summary = renderSummary(record, { locale: record.locale });
    const shown = world.platform.messages.get(question.messageId);
    if (shown !== summary) {
      fail(
        `question ${question.id} ended ${record.status}, but its prompt message reads ${JSON.stringify(shown)}, not ${JSON.stringify(summary)}`,
      );
    }
    const edits = world.platform.finalized.filter((f) => f.delivery.messageId === question.messageId);
    const wrong = edits.filter((edit) => edit.summary !== summary || edit.record.status !== record.status);
    if (wrong.length > 0)
      fail(`question ${question.id}: an edit showed ${JSON.stringify(wrong[0]?.summary)}`);
  }
}
