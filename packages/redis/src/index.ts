/**
 * @ask-user/redis — the shared `QuestionStore` for several gateway instances: records, indexes and a
 * change feed on one Redis server, every write one atomic Lua script.
 */
export { type Keys, keysFor } from "./keys.ts";
export {
  createRedisPushState,
  type PushKeys,
  pushKeysFor,
  type RedisPushState,
  type RedisPushStateOptions,
} from "./push.ts";
export { createRedisStore, type RedisStore, type RedisStoreOptions } from "./store.ts";
