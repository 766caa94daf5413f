import { needsRepair, type QuestionFilter, type QuestionRecord } from "@ask-user/core/store";

/** The default namespace of every key and the change channel. */
export const DEFAULT_KEY_PREFIX = "ask-user:";

/**
 * One part of a key that has more than one variable part: percent-encoded, so a `:` inside a channel
 * name or conversation id cannot make two different keys collide.
 */
const part = (value: string): string => encodeURIComponent(value);

/**
 * The key layout of one namespace (see README "Data layout"). A record's own key and its token key end
 * in one variable part, which is used as is; keys with several variable parts encode each of them.
 */
export interface Keys {
  readonly prefix: string;
  /** Hash of one record: `v` version, `s` status, `r` record JSON, `x` its index entries (JSON). */
  record(id: string): string;
  /** What the Lua scripts prepend to an id to get the record key (`record(id) === recordPrefix + id`). */
  readonly recordPrefix: string;
  /** Sorted set (score `createdAt`, member id) of every record. */
  readonly all: string;
  status(status: string): string;
  run(runId: string): string;
  conversation(channel: string, conversation: string): string;
  /** Sorted set of the PENDING records of one conversation: reply routing never reads its history. */
  pendingIn(channel: string, conversation: string): string;
  /** Sorted set (score `expiresAt`) of the ended records: retention deletes in deadline order. */
  readonly endedByExpiry: string;
  /** String: the version of the key layout written here (for one-time index backfills). */
  readonly layout: string;
  /** Sorted set of the records that need repair (core's `needsRepair`). */
  readonly repair: string;
  /** String: action token → record id. */
  token(token: string): string;
  /** String: delivered message → record id. */
  message(channel: string, conversation: string, messageId: string): string;
  /** String with a TTL: a platform update already handled (dedupe). */
  seen(key: string): string;
  /** String with a TTL: the holder of a lease. */
  lease(name: string): string;
  /** Stream of recent changes (the catch-up log after a dropped subscriber connection). */
  readonly changes: string;
  /** Pub/sub channel every change is published on. */
  readonly channel: string;
}

/** The keys under `prefix`. */
export function keysFor(prefix: string): Keys {
  return {
    prefix,
    record: (id) => `${prefix}q:${id}`,
    recordPrefix: `${prefix}q:`,
    all: `${prefix}i:all`,
    status: (status) => `${prefix}i:status:${status}`,
    run: (runId) => `${prefix}i:run:${part(runId)}`,
    conversation: (channel, conversation) => `${prefix}i:conv:${part(channel)}:${part(conversation)}`,
    repair: `${prefix}i:repair`,
    pendingIn: (channel, conversation) => `${prefix}i:pending:${part(channel)}:${part(conversation)}`,
    endedByExpiry: `${prefix}i:ended-by-expiry`,
    layout: `${prefix}layout`,
    token: (token) => `${prefix}token:${token}`,
    message: (channel, conversation, messageId) =>
      `${prefix}msg:${part(channel)}:${part(conversation)}:${part(messageId)}`,
    seen: (key) => `${prefix}seen:${part(key)}`,
    lease: (name) => `${prefix}lease:${part(name)}`,
    changes: `${prefix}changes`,
    channel: `${prefix}changes`,
  };
}

/**
 * Where a record is indexed: the sorted sets it is a member of (score `createdAt`) and the lookup keys
 * that point at it. Stored with the record, so the next write can remove exactly these entries.
 */
export interface IndexEntries {
  sortedSets: string[];
  lookups: string[];
  /** Sorted sets scored by `expiresAt` instead of `createdAt`. */
  byExpiry?: string[];
}

/** The index entries of `record`, derived from its fields. */
export function indexEntries(keys: Keys, record: QuestionRecord): IndexEntries {
  const sortedSets = [keys.all, keys.status(record.status)];
  if (record.runId !== undefined) sortedSets.push(keys.run(record.runId));
  if (record.target) sortedSets.push(keys.conversation(record.target.channel, record.target.conversation));
  if (needsRepair(record)) sortedSets.push(keys.repair);
  if (record.status === "pending" && record.target)
    sortedSets.push(keys.pendingIn(record.target.channel, record.target.conversation));
  const lookups = record.tokens.map((token) => keys.token(token));
  for (const d of record.deliveries) lookups.push(keys.message(d.channel, d.conversation, d.messageId));
  const byExpiry = record.status === "pending" ? [] : [keys.endedByExpiry];
  return { sortedSets, lookups: [...new Set(lookups)], byExpiry };
}

/**
 * The narrowest index that holds every record matching `filter`; the rest of the filter is applied to
 * the records read from it (core's `matchesFilter`).
 */
export function indexFor(keys: Keys, filter: QuestionFilter): string {
  if (filter.needsRepair) return keys.repair;
  if (filter.status === "pending" && filter.channel !== undefined && filter.conversation !== undefined)
    return keys.pendingIn(filter.channel, filter.conversation);
  if (filter.channel !== undefined && filter.conversation !== undefined)
    return keys.conversation(filter.channel, filter.conversation);
  if (filter.runId !== undefined) return keys.run(filter.runId);
  if (filter.status !== undefined) return keys.status(filter.status);
  return keys.all;
}
