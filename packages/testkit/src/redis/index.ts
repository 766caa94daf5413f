export { type RedisServer, startRedisServer } from "./server.ts";
