import { AskUserError } from "../model/errors.ts";
import { needsRepair, type QuestionRecord } from "../model/types.ts";
import type { Clock } from "../ports/clock.ts";
import { createMemoryCoordination } from "../ports/coordination.ts";
import {
  type ListPosition,
  matchesFilter,
  type QuestionFilter,
  type QuestionStore,
  type StoreChange,
} from "../ports/store.ts";

/** List order: `createdAt`, then id. */
function compareListOrder(a: ListPosition, b: ListPosition): number {
  return a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

const messageKey = (channel: string, conversation: string, messageId: string) =>
  `${channel}\u0000${conversation}\u0000${messageId}`;

const conversationKey = (record: QuestionRecord) =>
  record.target ? `${record.target.channel}\u0000${record.target.conversation}` : undefined;

/** The look-up keys of a record's tokens and delivered messages. */
function lookups(record: QuestionRecord): { tokens: readonly string[]; messages: string[] } {
  return {
    tokens: record.tokens,
    messages: record.deliveries.map((d) => messageKey(d.channel, d.conversation, d.messageId)),
  };
}

/**
 * An in-memory `QuestionStore` for tests and single-process use without durability. Records are kept as
 * JSON — copied in and out, so callers can never change what is stored behind its back, and about a
 * third of the heap the same record takes as objects (under 1 KB per pending question with its
 * indexes). Pending questions are indexed (all, by conversation for reply routing, those needing
 * repair); other lists and retention read every record.
 *
 * @example
 * const askUser = createAskUser({ store: createMemoryStore(), channels: [] });
 */
export function createMemoryStore(options: { clock?: Clock } = {}): QuestionStore {
  const coordination = createMemoryCoordination(options.clock);
  const records = new Map<string, string>();
  const byToken = new Map<string, string>();
  const byMessage = new Map<string, string>();
  const pending = new Set<string>();
  const pendingIn = new Map<string, Set<string>>();
  const repair = new Set<string>();
  const listeners = new Set<(change: StoreChange) => void>();
  let closed = false;

  function assertOpen(): void {
    if (closed) throw new AskUserError("closed", "The memory store is closed.");
  }

  /** A private copy of a stored record; its `id` is the string the store keeps (not a second copy). */
  function load(id: string, json: string): QuestionRecord {
    const record = JSON.parse(json) as QuestionRecord;
    record.id = id;
    return record;
  }

  function pendingSet(key: string): Set<string> {
    let set = pendingIn.get(key);
    if (!set) {
      set = new Set();
      pendingIn.set(key, set);
    }
    return set;
  }

  /**
   * Moves the indexes of record `id` from `before` (undefined when new) to `after`, touching only the
   * entries that change. A token or message is owned by the record written last.
   */
  function reindex(id: string, before: QuestionRecord | undefined, after: QuestionRecord): void {
    const wasPending = before?.status === "pending";
    const isPending = after.status === "pending";
    if (isPending) pending.add(id);
    else pending.delete(id);
    const oldConversation = wasPending && before ? conversationKey(before) : undefined;
    const newConversation = isPending ? conversationKey(after) : undefined;
    if (oldConversation !== newConversation) {
      if (oldConversation !== undefined) {
        const set = pendingIn.get(oldConversation);
        set?.delete(id);
        if (set?.size === 0) pendingIn.delete(oldConversation);
      }
      if (newConversation !== undefined) pendingSet(newConversation).add(id);
    }
    if (needsRepair(after)) repair.add(id);
    else repair.delete(id);

    const next = lookups(after);
    if (before) {
      const old = lookups(before);
      for (const token of old.tokens)
        if (!next.tokens.includes(token) && byToken.get(token) === id) byToken.delete(token);
      for (const key of old.messages)
        if (!next.messages.includes(key) && byMessage.get(key) === id) byMessage.delete(key);
    }
    for (const token of next.tokens) if (byToken.get(token) !== id) byToken.set(token, id);
    for (const key of next.messages) if (byMessage.get(key) !== id) byMessage.set(key, id);
  }

  function unindex(id: string, record: QuestionRecord): void {
    pending.delete(id);
    repair.delete(id);
    const { tokens, messages } = lookups(record);
    for (const token of tokens) if (byToken.get(token) === id) byToken.delete(token);
    for (const key of messages) if (byMessage.get(key) === id) byMessage.delete(key);
  }

  function emit(id: string, json: string, previousStatus: StoreChange["previousStatus"]): void {
    // Listeners run after the write returns, in write order, each with its own copy.
    queueMicrotask(() => {
      for (const listener of listeners) listener({ record: load(id, json), previousStatus });
    });
  }

  /** The ids `list` reads for `filter`: the narrowest index that holds every match. */
  function candidates(filter: QuestionFilter): Iterable<string> {
    if (filter.needsRepair) return repair;
    if (filter.status === "pending") {
      if (filter.channel === undefined || filter.conversation === undefined) return pending;
      return pendingIn.get(`${filter.channel}\u0000${filter.conversation}`) ?? [];
    }
    return records.keys();
  }

  function find(id: string | undefined): QuestionRecord | undefined {
    const json = id === undefined ? undefined : records.get(id);
    return id === undefined || json === undefined ? undefined : load(id, json);
  }

  return {
    async create(record) {
      assertOpen();
      const id = record.id;
      if (records.has(id)) {
        throw new AskUserError("store_conflict", `A question with id ${id} already exists.`);
      }
      const json = JSON.stringify(record);
      records.set(id, json);
      reindex(id, undefined, record);
      emit(id, json, undefined);
    },
    async get(id) {
      assertOpen();
      return find(id);
    },
    async compareAndSet(expectedVersion, next) {
      assertOpen();
      const json = records.get(next.id);
      if (json === undefined || next.version !== expectedVersion + 1) return false;
      const current = load(next.id, json);
      if (current.version !== expectedVersion) return false;
      const nextJson = JSON.stringify(next);
      records.set(next.id, nextJson);
      reindex(next.id, current, next);
      emit(next.id, nextJson, current.status);
      return true;
    },
    async list(filter = {}, page = {}) {
      assertOpen();
      const after = page.after;
      const found: QuestionRecord[] = [];
      for (const id of candidates(filter)) {
        const record = find(id);
        if (!record || (after && compareListOrder(record, after) <= 0)) continue;
        if (matchesFilter(record, filter)) found.push(record);
      }
      found.sort(compareListOrder);
      return page.limit === undefined ? found : found.slice(0, Math.max(0, page.limit));
    },
    async findByToken(token) {
      assertOpen();
      return find(byToken.get(token));
    },
    async findByMessage(channel, conversation, messageId) {
      assertOpen();
      return find(byMessage.get(messageKey(channel, conversation, messageId)));
    },
    async prune(before) {
      assertOpen();
      let deleted = 0;
      for (const [id, json] of records) {
        if (pending.has(id)) continue;
        const record = load(id, json);
        if (record.status === "pending" || record.expiresAt >= before) continue;
        records.delete(id);
        unindex(id, record);
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
    leaseHolder(name) {
      assertOpen();
      return coordination.leaseHolder(name);
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
