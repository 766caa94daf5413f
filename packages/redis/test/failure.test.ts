import type { StoreChange } from "@ask-user/core/store";
import { sampleRecord } from "@ask-user/core/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createRedisStore } from "../src/index.ts";
import { bump, connections, recordingLogger, rejectsWith } from "./helpers.ts";
import { freshPrefix, type RedisServer, startRedisServer } from "./redis-server.ts";

const { open, client } = connections();

// These tests kill and restart servers, so each starts its own.
const servers: Array<{ stop(): Promise<void> }> = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
});
async function ownServer(): Promise<RedisServer> {
  const server = await startRedisServer();
  servers.push(server);
  return server;
}

/** How long `promise` took to settle, and how it settled. */
async function timed(promise: Promise<unknown>): Promise<{ ms: number; error: unknown }> {
  const start = performance.now();
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  return { ms: performance.now() - start, error };
}

describe("when Redis fails", () => {
  it("a restart fails calls in flight with store_failure instead of hanging, then the store works again", async () => {
    const server = await ownServer();
    const logger = recordingLogger();
    const store = await open({ url: server.url, keyPrefix: freshPrefix(), logger, commandTimeoutMs: 2000 });
    const heard: StoreChange[] = [];
    store.subscribe((change) => heard.push(change));
    const record = sampleRecord();
    await store.create(record);
    await vi.waitFor(() => expect(heard).toHaveLength(1));

    await server.kill();
    const read = await timed(store.get(record.id));
    expect(read.error).toSatisfy(rejectsWith("store_failure"));
    expect(read.ms).toBeLessThan(2500);
    const write = await timed(
      store.compareAndSet(
        1,
        bump(record, () => undefined),
      ),
    );
    expect(write.error).toSatisfy(rejectsWith("store_failure"));
    expect(write.ms).toBeLessThan(2500);

    await server.start(); // empty: this server keeps nothing on disk
    const again = sampleRecord();
    await vi.waitFor(() => store.create(again), { timeout: 5000, interval: 100 });
    expect(await store.get(again.id)).toEqual(again);
    await vi.waitFor(() => expect(heard.map((c) => c.record.id)).toEqual([record.id, again.id]), {
      timeout: 5000,
    });
    const messages = logger.lines.map((line) => `${line.level}: ${line.message}`);
    expect(messages).toContain("warn: Redis connection failed");
    expect(messages.some((m) => m.startsWith("warn: the change log no longer holds the last change"))).toBe(
      true,
    );
  }, 15_000);

  it("fails calls and `ready` with store_failure within commandTimeoutMs when no server is there", async () => {
    const server = await ownServer();
    await server.kill();
    const store = createRedisStore({
      url: server.url,
      keyPrefix: freshPrefix(),
      commandTimeoutMs: 300,
      logger: recordingLogger(),
    });
    try {
      const ready = await timed(store.ready);
      expect(ready.error).toSatisfy(rejectsWith("store_failure"));
      expect(ready.ms).toBeLessThan(300 + 1500); // the timeout, plus slack for a busy machine
      const read = await timed(store.list());
      expect(read.error).toSatisfy(rejectsWith("store_failure"));
      expect(read.ms).toBeLessThan(300 + 1500);
    } finally {
      await store.close();
    }
  });

  it("fails a command that gets no reply within commandTimeoutMs", async () => {
    const server = await ownServer();
    const store = await open({ url: server.url, keyPrefix: freshPrefix(), commandTimeoutMs: 200 });
    await client(server.url).client("PAUSE", 5000, "ALL");
    const read = await timed(store.get("anything"));
    expect(read.error).toSatisfy(rejectsWith("store_failure"));
    expect(String((read.error as Error).message)).toContain("Command timed out");
    expect(read.ms).toBeLessThan(200 + 1500); // well before the pause ends
  });
});
