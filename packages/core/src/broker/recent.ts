import type { QuestionRecord } from "../model/types.ts";
import { keepBefore } from "./transitions.ts";

/** How many records the broker keeps as first guesses (about 1-3 KB each). */
export const RECENT_RECORDS = 512;

/**
 * The records the broker last heard written on its store's change feed (its own writes, and on a
 * shared store the other instances'), newest last, at most `limit` of them: the first guess of a
 * transition, so an answer that follows its question closely needs no store read. A guess is only ever
 * used where it is checked — a write made from it is a compare-and-set on its version, which another
 * writer's change makes fail (the next attempt reads the store), and a refusal decided on it is decided
 * again on the stored record — so a stale guess (a write by a process whose changes this broker does not
 * hear, a record pruned since) costs one more attempt, never a wrong outcome.
 */
export class RecentRecords {
  private readonly records = new Map<string, QuestionRecord>();

  constructor(private readonly limit: number = RECENT_RECORDS) {}

  /** Keeps a copy of `record` (unless an older version than the one kept), as the newest. */
  remember(record: QuestionRecord): void {
    const kept = this.records.get(record.id);
    if (kept && kept.version > record.version) return;
    this.records.delete(record.id);
    this.records.set(record.id, keepBefore(record));
    if (this.records.size > this.limit) {
      const oldest = this.records.keys().next().value;
      if (oldest !== undefined) this.records.delete(oldest);
    }
  }

  /**
   * A private copy of the record as last heard, or undefined. Like every transition's copy it shares
   * the prompt, the tokens and the answerer policy, which no change touches.
   */
  guess(id: string): QuestionRecord | undefined {
    const kept = this.records.get(id);
    return kept && keepBefore(kept);
  }

  forget(id: string): void {
    this.records.delete(id);
  }

  get size(): number {
    return this.records.size;
  }
}
