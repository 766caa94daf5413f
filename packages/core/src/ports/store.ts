import { needsRepair, type QuestionRecord, type QuestionStatus } from "../model/types.ts";
import type { Coordination } from "./coordination.ts";

/** Which records `list` returns. All fields are optional and combine with AND. */
export interface QuestionFilter {
  status?: QuestionStatus;
  runId?: string;
  /** Target channel name. */
  channel?: string;
  /** Target conversation id (use with `channel`). */
  conversation?: string;
  /** Only records that core's `needsRepair` says are unfinished (an indexed query in every store). */
  needsRepair?: true;
}

/** Where a page of `list` starts: after the record with this `createdAt` and `id` (list order). */
export interface ListPosition {
  createdAt: number;
  id: string;
}

/** A page of `list`: at most `limit` records, after `after`. */
export interface ListPage {
  limit?: number;
  after?: ListPosition;
}

/** A write that a store reports to its subscribers: the record as written, and its status before. */
export interface StoreChange {
  record: QuestionRecord;
  /** `undefined` when the record was created by this write. */
  previousStatus: QuestionStatus | undefined;
}

/**
 * The storage port. Records are values: a store never hands out objects it keeps, and never keeps
 * objects it is given. Every write is a compare-and-set on `version`, which is what makes the first
 * answer win across processes. A shared store (Redis) reports writes made by other processes to its
 * subscribers too, so an answer taken by one instance wakes the `ask()` waiting in another. Every
 * store is also the instances' {@link Coordination} (dedupe keys and leases), shared as widely as its
 * records.
 */
export interface QuestionStore extends Coordination {
  /** Who holds lease `name` now, or `undefined` when it is free or ran out (see `Coordination`). */
  leaseHolder(name: string): Promise<string | undefined>;
  /** Adds a new record (its `version` is 1). Throws `AskUserError("store_conflict")` if the id exists. */
  create(record: QuestionRecord): Promise<void>;
  /** The record, or `undefined`. */
  get(id: string): Promise<QuestionRecord | undefined>;
  /**
   * Replaces the record `next.id` with `next` if and only if the stored version is `expectedVersion`
   * (and `next.version` is `expectedVersion + 1`). Returns false when another write came first.
   */
  compareAndSet(expectedVersion: number, next: QuestionRecord): Promise<boolean>;
  /**
   * Records matching the filter, oldest first (by `createdAt`, then id); with `page`, at most
   * `page.limit` of them, starting after `page.after` — read through an index, never all history.
   */
  list(filter?: QuestionFilter, page?: ListPage): Promise<QuestionRecord[]>;
  /** The record one of whose `tokens` is `token`. */
  findByToken(token: string): Promise<QuestionRecord | undefined>;
  /** The record one of whose deliveries is this message. */
  findByMessage(
    channel: string,
    conversation: string,
    messageId: string,
  ): Promise<QuestionRecord | undefined>;
  /**
   * Calls `listener` after every successful write (in write order per record), including writes by other
   * processes for shared stores. Returns the unsubscribe function.
   */
  subscribe(listener: (change: StoreChange) => void): () => void;
  /**
   * Retention: deletes the records that have ended (any status but `pending`) and whose deadline
   * (`expiresAt`) is before `before` (epoch ms), with their token and message look-ups. Pending records
   * are never deleted. Returns how many were deleted. Subscribers are not told.
   */
  prune(before: number): Promise<number>;
  /** Releases connections and files. */
  close(): Promise<void>;
}

/** True when `record` matches every field of `filter`: the one test every store's `list` applies. */
export function matchesFilter(record: QuestionRecord, filter: QuestionFilter): boolean {
  if (filter.status !== undefined && record.status !== filter.status) return false;
  if (filter.runId !== undefined && record.runId !== filter.runId) return false;
  if (filter.channel !== undefined && record.target?.channel !== filter.channel) return false;
  if (filter.conversation !== undefined && record.target?.conversation !== filter.conversation) return false;
  if (filter.needsRepair && !needsRepair(record)) return false;
  return true;
}
