/**
 * @ask-user/redis — the shared `QuestionStore` for several gateway instances: records, indexes and a
 * change feed on one Redis server, every write one atomic Lua script.
 */
export { type Keys, keysFor } from "./keys.ts";
export { createRedisStore, type RedisStore, type RedisStoreOptions } from "./store.ts";
