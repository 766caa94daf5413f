import { sampleRecord } from "@ask-user/core/testing";
import { describe, expect, it } from "vitest";
import { keysFor } from "../src/index.ts";
import { bump, connections } from "./helpers.ts";
import { freshPrefix, useRedisServer } from "./redis-server.ts";

const server = useRedisServer();
const { open, client } = connections();
const target = { channel: "tg", conversation: "100" };

describe("indexes that keep requests off the history", () => {
  it("routes through the conversation's pending index, which holds only pending questions", async () => {
    const keyPrefix = freshPrefix();
    const store = await open({ url: server().url, keyPrefix });
    const k = keysFor(keyPrefix);
    for (let i = 0; i < 50; i++)
      await store.create(sampleRecord({ target, status: "expired", createdAt: i }));
    const waiting = sampleRecord({ target, createdAt: 100 });
    await store.create(waiting);
    const redis = client(server().url);
    expect(await redis.zrange(k.pendingIn("tg", "100"), 0, -1)).toEqual([waiting.id]);
    expect((await store.list({ status: "pending", ...target })).map((r) => r.id)).toEqual([waiting.id]);
    await store.compareAndSet(
      1,
      bump(waiting, (r) => {
        r.status = "answered";
      }),
    );
    expect(await redis.zcard(k.pendingIn("tg", "100"))).toBe(0);
    expect(await store.list({ status: "pending", ...target })).toEqual([]);
  });

  it("prunes in deadline order, in bounded batches, never a pending question", async () => {
    const keyPrefix = freshPrefix();
    const store = await open({ url: server().url, keyPrefix });
    const old = Array.from({ length: 450 }, (_, i) =>
      sampleRecord({ status: "expired", expiresAt: 1_000 + i, tokens: [`T${i}`] }),
    );
    for (const record of old) await store.create(record);
    const recent = sampleRecord({ status: "expired", expiresAt: 9_000 });
    const pending = sampleRecord({ expiresAt: 10 });
    await store.create(recent);
    await store.create(pending);
    expect(await store.prune(5_000)).toBe(450);
    expect((await store.list()).map((r) => r.id).sort()).toEqual([recent.id, pending.id].sort());
    expect(await store.findByToken("T3")).toBeUndefined();
    const redis = client(server().url);
    expect(await redis.zrange(keysFor(keyPrefix).endedByExpiry, 0, -1)).toEqual([recent.id]);
  });

  it("backfills the new indexes once when it opens data written with the older layout", async () => {
    const keyPrefix = freshPrefix();
    const first = await open({ url: server().url, keyPrefix });
    const waiting = sampleRecord({ target, createdAt: 5 });
    const ended = sampleRecord({ target, status: "cancelled", expiresAt: 100, createdAt: 1 });
    await first.create(waiting);
    await first.create(ended);
    // What the older layout left: no pending-per-conversation or ended-by-expiry index, no layout key.
    const k = keysFor(keyPrefix);
    const redis = client(server().url);
    await redis.del(k.pendingIn("tg", "100"), k.endedByExpiry, k.layout);
    const second = await open({ url: server().url, keyPrefix });
    expect((await second.list({ status: "pending", ...target })).map((r) => r.id)).toEqual([waiting.id]);
    expect(await second.prune(1_000)).toBe(1);
    expect(await redis.get(k.layout)).toBe("2");
  });
});
