import { randomBytes } from "node:crypto";
import { type RedisServer, startRedisServer } from "@ask-user/testkit/redis";
import { afterAll, beforeAll } from "vitest";

export { type RedisServer, startRedisServer };

/**
 * Starts a redis-server before the file's tests and stops it after them. The returned function gives
 * the running server (call it inside tests and hooks).
 */
export function useRedisServer(): () => RedisServer {
  let server: (RedisServer & { stop(): Promise<void> }) | undefined;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await server?.stop();
  });
  return () => {
    if (!server) throw new Error("the redis-server of this test file did not start");
    return server;
  };
}

/** A key prefix no other test uses, so tests on one server never see each other's data. */
export function freshPrefix(): string {
  return `test-${randomBytes(6).toString("hex")}:`;
}
