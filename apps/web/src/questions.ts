import type { PublicQuestion } from "@ask-user/core";

/** Every question the panel knows, by id. */
export type QuestionMap = ReadonlyMap<string, PublicQuestion>;

/**
 * Merges questions into the map, keeping the newest version of each (an event and a list fetched at
 * the same moment may arrive in either order).
 */
export function merge(map: QuestionMap, incoming: readonly PublicQuestion[]): QuestionMap {
  let next: Map<string, PublicQuestion> | undefined;
  for (const question of incoming) {
    const known = (next ?? map).get(question.id);
    if (known && known.version > question.version) continue;
    next ??= new Map(map);
    next.set(question.id, question);
  }
  return next ?? map;
}

/** Oldest first: the history reads top to bottom, newest last, and the oldest pending question is asked first. */
export function byCreation(map: QuestionMap): PublicQuestion[] {
  return [...map.values()].sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
}

/** True when the question is still open at `serverNow` (its deadline not yet passed). */
export function isOpen(question: PublicQuestion, serverNow: number): boolean {
  return question.status === "pending" && question.expiresAt > serverNow;
}
