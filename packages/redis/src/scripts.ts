import type { ListPosition, QuestionRecord, QuestionStatus } from "@ask-user/core/store";
import type { Redis } from "ioredis";
import { indexEntries, type Keys } from "./keys.ts";

/**
 * A Lua function both writing and pruning scripts start with: removes record `id` from the index entries
 * it was stored with (its sorted sets, its deadline sets, its lookups that still point to it).
 */
const UNINDEX = `
local function unindex(entries, id)
  for _, set in ipairs(entries.sortedSets) do redis.call('ZREM', set, id) end
  for _, set in ipairs(entries.byExpiry or {}) do redis.call('ZREM', set, id) end
  for _, lookup in ipairs(entries.lookups) do
    if redis.call('GET', lookup) == id then redis.call('DEL', lookup) end
  end
end`;

/**
 * Writes one record with its indexes, or nothing. Creates when ARGV[1] is "0" (refused if the record
 * exists); otherwise writes only over the stored version ARGV[1]. Then appends the change to the capped
 * change stream and publishes it as "<stream id>\n<change JSON>". Returns nil when refused, else the
 * status before ("" for a create).
 *
 * KEYS[1] record hash · KEYS[2] change stream
 * ARGV[1] expected version (0 = create) · [2] id · [3] version · [4] status · [5] createdAt (score)
 *     [6] record JSON · [7] index entries JSON · [8] pub/sub channel · [9] change stream length
 *     [10] expiresAt (score of the `byExpiry` sets)
 */
const WRITE = `${UNINDEX}
local current = redis.call('HMGET', KEYS[1], 'v', 's', 'x')
local expected = tonumber(ARGV[1])
if expected == 0 then
  if current[1] then return false end
elseif tonumber(current[1]) ~= expected then
  return false
end
local id = ARGV[2]
if current[3] then unindex(cjson.decode(current[3]), id) end
local entries = cjson.decode(ARGV[7])
for _, key in ipairs(entries.sortedSets) do redis.call('ZADD', key, ARGV[5], id) end
for _, key in ipairs(entries.byExpiry or {}) do redis.call('ZADD', key, ARGV[10], id) end
for _, key in ipairs(entries.lookups) do redis.call('SET', key, id) end
redis.call('HSET', KEYS[1], 'v', ARGV[3], 's', ARGV[4], 'r', ARGV[6], 'x', ARGV[7])
local change = '{"record":' .. ARGV[6]
if current[2] then change = change .. ',"previousStatus":' .. cjson.encode(current[2]) end
change = change .. '}'
local seq = redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[9], '*', 'c', change)
redis.call('PUBLISH', ARGV[8], seq .. '\\n' .. change)
return current[2] or ''
`;

/**
 * The JSON of the records in one index, oldest first (one atomic read), after a position and at most a
 * count. KEYS[1] sorted set (score createdAt, member id; equal scores ordered by member, as the list).
 * ARGV[1] record prefix · [2] min score ("-inf" for the start) · [3] id to pass at that score ("" none)
 * · [4] how many index entries to read at most ("0" = all).
 */
const LIST = `
local out = {}
local want = tonumber(ARGV[4])
local seen = 0
local offset = 0
local batch = 256
while true do
  local page = redis.call('ZRANGEBYSCORE', KEYS[1], ARGV[2], '+inf', 'WITHSCORES', 'LIMIT', offset, batch)
  if #page == 0 then break end
  for i = 1, #page, 2 do
    local id = page[i]
    local skip = ARGV[3] ~= '' and page[i + 1] == ARGV[2] and id <= ARGV[3]
    if not skip then
      seen = seen + 1
      local json = redis.call('HGET', ARGV[1] .. id, 'r')
      if json then out[#out + 1] = json end
      if want > 0 and seen >= want then return out end
    end
  end
  offset = offset + batch
end
return out
`;

/** The JSON of the record a lookup key points at, or nil. KEYS[1] lookup key, ARGV[1] record prefix. */
const LOOKUP = `
local id = redis.call('GET', KEYS[1])
if not id then return false end
return redis.call('HGET', ARGV[1] .. id, 'r')
`;

/**
 * Retention, one bounded batch: deletes up to ARGV[3] ended records whose deadline is before ARGV[2]
 * (in deadline order, from the ended-by-expiry index), with their index entries and lookups.
 * KEYS[1] ended-by-expiry sorted set · ARGV[1] record key prefix. Returns { deleted, examined }.
 */
const PRUNE = `${UNINDEX}
local deleted = 0
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[2], 'LIMIT', 0, tonumber(ARGV[3]))
for _, id in ipairs(ids) do
  local key = ARGV[1] .. id
  local fields = redis.call('HMGET', key, 's', 'x')
  if fields[1] and fields[1] ~= 'pending' then
    if fields[2] then unindex(cjson.decode(fields[2]), id) end
    redis.call('DEL', key)
    deleted = deleted + 1
  end
  redis.call('ZREM', KEYS[1], id)
end
return { deleted, #ids }
`;

/**
 * Rewrites one record's index entries (a one-time backfill after the key layout grew), if it is still at
 * version ARGV[2]. KEYS[1] record hash · ARGV[1] id · [2] version · [3] entries JSON · [4] createdAt ·
 * [5] expiresAt.
 */
const REINDEX = `
local current = redis.call('HMGET', KEYS[1], 'v', 'x')
if current[1] ~= ARGV[2] then return 0 end
local id = ARGV[1]
if current[2] then
  local old = cjson.decode(current[2])
  for _, key in ipairs(old.sortedSets) do redis.call('ZREM', key, id) end
  for _, key in ipairs(old.byExpiry or {}) do redis.call('ZREM', key, id) end
end
local entries = cjson.decode(ARGV[3])
for _, key in ipairs(entries.sortedSets) do redis.call('ZADD', key, ARGV[4], id) end
for _, key in ipairs(entries.byExpiry or {}) do redis.call('ZADD', key, ARGV[5], id) end
for _, key in ipairs(entries.lookups) do redis.call('SET', key, id) end
redis.call('HSET', KEYS[1], 'x', ARGV[3])
return 1
`;

/**
 * Takes or renews a lease: KEYS[1] lease key · ARGV[1] holder · ARGV[2] ttl ms. 1 when the holder has it.
 */
const LEASE = `
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`;

/** Gives a lease up if ARGV[1] holds it. KEYS[1] lease key. */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0
`;

/** The store's Lua scripts, as ioredis commands on one connection. */
interface ScriptCommands {
  askUserWrite(...args: string[]): Promise<string | null>;
  askUserList(
    key: string,
    recordPrefix: string,
    min: string,
    afterId: string,
    count: string,
  ): Promise<string[]>;
  askUserLookup(key: string, recordPrefix: string): Promise<string | null>;
  askUserPrune(key: string, recordPrefix: string, before: string, batch: string): Promise<[number, number]>;
  askUserReindex(...args: string[]): Promise<number>;
  askUserLease(key: string, holder: string, ttlMs: string): Promise<number>;
  askUserRelease(key: string, holder: string): Promise<number>;
}

/** The store's atomic operations over one command connection. */
export interface Scripts {
  /** Creates (`expectedVersion` 0) or compare-and-sets; the status before ("" for a create), or null. */
  write(expectedVersion: number, record: QuestionRecord, json: string): Promise<string | null>;
  /** Up to `count` index entries (0 = all) after `after`, as record JSON. */
  list(index: string, after?: ListPosition, count?: number): Promise<string[]>;
  lookup(key: string): Promise<string | null>;
  /** Deletes up to `batch` ended records with a deadline before `before`: [deleted, examined]. */
  prune(before: number, batch: number): Promise<[number, number]>;
  /** Rewrites a record's index entries if it is still at its version. */
  reindex(record: QuestionRecord): Promise<void>;
  lease(key: string, holder: string, ttlMs: number): Promise<boolean>;
  release(key: string, holder: string): Promise<void>;
}

/**
 * Defines the scripts on `redis` (sent with EVALSHA; ioredis sends the source with EVAL on a new
 * connection and again after a NOSCRIPT reply, e.g. after `SCRIPT FLUSH` or a server restart).
 */
export function defineScripts(redis: Redis, keys: Keys, changeLogLength: number): Scripts {
  redis.defineCommand("askUserWrite", { numberOfKeys: 2, lua: WRITE });
  redis.defineCommand("askUserList", { numberOfKeys: 1, lua: LIST });
  redis.defineCommand("askUserLookup", { numberOfKeys: 1, lua: LOOKUP });
  redis.defineCommand("askUserPrune", { numberOfKeys: 1, lua: PRUNE });
  redis.defineCommand("askUserReindex", { numberOfKeys: 1, lua: REINDEX });
  redis.defineCommand("askUserLease", { numberOfKeys: 1, lua: LEASE });
  redis.defineCommand("askUserRelease", { numberOfKeys: 1, lua: RELEASE });
  // defineCommand adds the methods at run time; this is their shape.
  const commands = redis as unknown as ScriptCommands;
  return {
    write(expectedVersion, record, json) {
      return commands.askUserWrite(
        keys.record(record.id),
        keys.changes,
        String(expectedVersion),
        record.id,
        String(record.version),
        record.status satisfies QuestionStatus,
        String(record.createdAt),
        json,
        JSON.stringify(indexEntries(keys, record)),
        keys.channel,
        String(changeLogLength),
        String(record.expiresAt),
      );
    },
    list: (index, after, count = 0) =>
      commands.askUserList(
        index,
        keys.recordPrefix,
        after ? String(after.createdAt) : "-inf",
        after ? after.id : "",
        String(count),
      ),
    lookup: (key) => commands.askUserLookup(key, keys.recordPrefix),
    prune: (before, batch) =>
      commands.askUserPrune(keys.endedByExpiry, keys.recordPrefix, String(before), String(batch)),
    reindex: async (record) => {
      await commands.askUserReindex(
        keys.record(record.id),
        record.id,
        String(record.version),
        JSON.stringify(indexEntries(keys, record)),
        String(record.createdAt),
        String(record.expiresAt),
      );
    },
    lease: async (key, holder, ttlMs) =>
      (await commands.askUserLease(key, holder, String(Math.max(1, Math.ceil(ttlMs))))) === 1,
    release: async (key, holder) => {
      await commands.askUserRelease(key, holder);
    },
  };
}
