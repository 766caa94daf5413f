import type { Clock } from "./clock.ts";
import { createMemoryCoordination } from "./coordination.ts";
import { AskUserError } from "./errors.ts";
import type { ListPosition, QuestionFilter, QuestionStore, StoreChange } from "./store.ts";
import { needsRepair, type QuestionRecord } from "./types.ts";

function matches(record: QuestionRecord, filter: QuestionFilter): boolean {
  if (filter.status !== undefined && record.status !== filter.status) return false;
  if (filter.runId !== undefined && record.runId !== filter.runId) return false;
  if (filter.channel !== undefined && record.target?.channel !== filter.channel) return false;
  if (filter.conversation !== undefined && record.target?.conversation !== filter.conversation) return false;
  if (filter.needsRepair && !needsRepair(record)) return false;
  return true;
}

/** List order: `createdAt`, then id. */
function compareListOrder(a: ListPosition, b: ListPosition): number {
  return a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

const messageKey = (channel: string, conversation: string, messageId: string) =>
  `${channel}\u0000${conversation}\u0000${messageId}`;

/**
 * An in-memory `QuestionStore` for tests and single-process use without durability. Records are
 * copied in and out, so callers can never change what is stored behind its back.
 *
 * @example
 * const askUser = createAskUser({ store: createMemoryStore(), channels: [] });
 */
export function createMemoryStore(options: { clock?: Clock } = {}): QuestionStore {
  const coordination = createMemoryCoordination(options.clock);
  const records = new Map<string, QuestionRecord>();
  const byToken = new Map<string, string>();
  const byMessage = new Map<string, string>();
  const listeners = new Set<(change: StoreChange) => void>();
  let closed = false;

  function assertOpen(): void {
    if (closed) throw new AskUserError("closed", "The memory store is closed.");
  }

  function index(record: QuestionRecord): void {
    for (const token of record.tokens) byToken.set(token, record.id);
    for (const d of record.deliveries)
      byMessage.set(messageKey(d.channel, d.conversation, d.messageId), record.id);
  }

  function emit(change: StoreChange): void {
    // Listeners run after the write returns, in write order, each with its own copy.
    queueMicrotask(() => {
      for (const listener of listeners) listener({ ...change, record: structuredClone(change.record) });
    });
  }

  return {
    async create(record) {
      assertOpen();
      if (records.has(record.id)) {
        throw new AskUserError("store_conflict", `A question with id ${record.id} already exists.`);
      }
      const copy = structuredClone(record);
      records.set(copy.id, copy);
      index(copy);
      emit({ record: copy, previousStatus: undefined });
    },
    async get(id) {
      assertOpen();
      const record = records.get(id);
      return record && structuredClone(record);
    },
    async compareAndSet(expectedVersion, next) {
      assertOpen();
      const current = records.get(next.id);
      if (!current || current.version !== expectedVersion || next.version !== expectedVersion + 1)
        return false;
      const copy = structuredClone(next);
      records.set(copy.id, copy);
      index(copy);
      emit({ record: copy, previousStatus: current.status });
      return true;
    },
    async list(filter = {}, page = {}) {
      assertOpen();
      const after = page.after;
      const found: QuestionRecord[] = [];
      for (const record of records.values()) {
        if (after && compareListOrder(record, after) <= 0) continue;
        if (matches(record, filter)) found.push(record);
      }
      found.sort(compareListOrder);
      const limited = page.limit === undefined ? found : found.slice(0, Math.max(0, page.limit));
      return limited.map((record) => structuredClone(record));
    },
    async findByToken(token) {
      assertOpen();
      const id = byToken.get(token);
      const record = id === undefined ? undefined : records.get(id);
      return record && structuredClone(record);
    },
    async findByMessage(channel, conversation, messageId) {
      assertOpen();
      const id = byMessage.get(messageKey(channel, conversation, messageId));
      const record = id === undefined ? undefined : records.get(id);
      return record && structuredClone(record);
    },
    async prune(before) {
      assertOpen();
      let deleted = 0;
      for (const record of [...records.values()]) {
        if (record.status === "pending" || record.expiresAt >= before) continue;
        records.delete(record.id);
        for (const token of record.tokens) if (byToken.get(token) === record.id) byToken.delete(token);
        for (const d of record.deliveries) {
          const key = messageKey(d.channel, d.conversation, d.messageId);
          if (byMessage.get(key) === record.id) byMessage.delete(key);
        }
        deleted++;
      }
      return deleted;
    },
    firstSeen(key, ttlMs) {
      assertOpen();
      return coordination.firstSeen(key, ttlMs);
    },
    acquireLease(name, holder, ttlMs) {
      assertOpen();
      return coordination.acquireLease(name, holder, ttlMs);
    },
    releaseLease(name, holder) {
      assertOpen();
      return coordination.releaseLease(name, holder);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      closed = true;
      listeners.clear();
    },
  };
}
