/**
 * `@ask-user/core/store` — the kit of a store author (SQLite, Redis, your database): the store port and
 * its filter and pages, the one filter test every store applies (`matchesFilter`), the record types and
 * which records need repair. Check a store with the contract suite in `@ask-user/core/testing`.
 */

export { AskUserError, describeError } from "./model/errors.ts";
export {
  isTerminal,
  needsRepair,
  type QuestionRecord,
  type QuestionStatus,
  type RepairClaim,
  TERMINAL_STATUSES,
} from "./model/types.ts";
export type { Coordination } from "./ports/coordination.ts";
export { type AskUserLogger, consoleLogger } from "./ports/logger.ts";
export {
  type ListPage,
  type ListPosition,
  matchesFilter,
  type QuestionFilter,
  type QuestionStore,
  type StoreChange,
} from "./ports/store.ts";
