import type { StoreChange } from "@ask-user/core/store";
import { sampleRecord } from "@ask-user/core/testing";
import type { Redis } from "ioredis";
import { describe, expect, it, vi } from "vitest";
import { keysFor } from "../src/index.ts";
import { bump, connections, rejectsWith } from "./helpers.ts";
import { freshPrefix, useRedisServer } from "./redis-server.ts";

const server = useRedisServer();
const { open, client } = connections();

/** Every key under `prefix` with its content (the change stream by its length). */
async function snapshot(redis: Redis, prefix: string): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const key of (await redis.keys(`${prefix}*`)).sort()) {
    const type = await redis.type(key);
    if (type === "hash") out[key] = await redis.hgetall(key);
    else if (type === "zset") out[key] = await redis.zrange(key, 0, -1, "WITHSCORES");
    else if (type === "string") out[key] = await redis.get(key);
    else if (type === "stream") out[key] = await redis.xlen(key);
    else out[key] = type;
  }
  return out;
}

describe("data layout", () => {
  it("keeps each record as a hash with its version, indexed by status, run, conversation, repair, token and message", async () => {
    const keyPrefix = freshPrefix();
    const store = await open({ url: server().url, keyPrefix });
    const k = keysFor(keyPrefix);
    const record = sampleRecord({
      runId: "run:1",
      tokens: ["T1"],
      target: { channel: "tg", conversation: "1:2" },
    });
    await store.create(record);
    const next = bump(record, (r) => {
      r.status = "answered";
      r.deliveries.push({ channel: "tg", conversation: "1:2", messageId: "42", kind: "prompt" });
    });
    expect(await store.compareAndSet(1, next)).toBe(true);

    const redis = client(server().url);
    const hash = await redis.hgetall(k.record(record.id));
    expect([hash.v, hash.s, JSON.parse(hash.r ?? "null")]).toEqual(["2", "answered", next]);
    expect(await snapshot(redis, keyPrefix)).toEqual({
      [`${keyPrefix}i:all`]: [record.id, String(record.createdAt)],
      [`${keyPrefix}i:conv:tg:1%3A2`]: [record.id, String(record.createdAt)],
      [`${keyPrefix}i:run:run%3A1`]: [record.id, String(record.createdAt)],
      [`${keyPrefix}i:status:answered`]: [record.id, String(record.createdAt)],
      // ended with its prompt not yet edited to the summary
      [`${keyPrefix}i:repair`]: [record.id, String(record.createdAt)],
      // ended: retention finds it by its deadline
      [`${keyPrefix}i:ended-by-expiry`]: [record.id, String(record.expiresAt)],
      [`${keyPrefix}layout`]: "2",
      [`${keyPrefix}msg:tg:1%3A2:42`]: record.id,
      [`${keyPrefix}q:${record.id}`]: hash,
      [`${keyPrefix}token:T1`]: record.id,
      [k.changes]: 2,
    });
  });

  it("moves a record between indexes and forgets tokens, messages, runs and targets it no longer has", async () => {
    const store = await open({ url: server().url, keyPrefix: freshPrefix() });
    const delivery = { channel: "tg", conversation: "100", messageId: "42", kind: "prompt" as const };
    const record = sampleRecord({ runId: "r1", tokens: ["T1", "T2"], deliveries: [delivery] });
    await store.create(record);
    const next = bump(record, (r) => {
      r.status = "cancelled";
      r.tokens = ["T2", "T3"];
      r.deliveries = [];
      delete r.runId;
      r.target = { channel: "slack", conversation: "C1" };
    });
    expect(await store.compareAndSet(1, next)).toBe(true);
    expect(await store.findByToken("T1")).toBeUndefined();
    expect((await store.findByToken("T3"))?.version).toBe(2);
    expect(await store.findByMessage("tg", "100", "42")).toBeUndefined();
    expect(await store.list({ status: "pending" })).toEqual([]);
    expect(await store.list({ runId: "r1" })).toEqual([]);
    expect(await store.list({ channel: "telegram", conversation: "100" })).toEqual([]);
    expect(await store.list({ status: "cancelled", channel: "slack", conversation: "C1" })).toEqual([next]);
  });

  it("changes nothing, not even the change log, when a create or compare-and-set is refused", async () => {
    const keyPrefix = freshPrefix();
    const store = await open({ url: server().url, keyPrefix });
    const record = sampleRecord();
    await store.create(record);
    const before = await snapshot(client(server().url), keyPrefix);
    await expect(store.create(sampleRecord({ id: record.id, runId: "other" }))).rejects.toSatisfy(
      rejectsWith("store_conflict"),
    );
    expect(
      await store.compareAndSet(
        2,
        bump(
          bump(record, () => undefined),
          () => undefined,
        ),
      ),
    ).toBe(false);
    expect(await store.compareAndSet(1, { ...bump(record, () => undefined), version: 3 })).toBe(false);
    expect(
      await store.compareAndSet(
        1,
        bump(sampleRecord(), () => undefined),
      ),
    ).toBe(false);
    expect(await snapshot(client(server().url), keyPrefix)).toEqual(before);
  });

  it("lets a newer record own a token it shares with an older one, even after the older one is written again", async () => {
    const store = await open({ url: server().url, keyPrefix: freshPrefix() });
    const older = sampleRecord({ tokens: ["SHARED", "OLD"] });
    const newer = sampleRecord({ tokens: ["SHARED"] });
    await store.create(older);
    await store.create(newer);
    expect((await store.findByToken("SHARED"))?.id).toBe(newer.id);
    const changed = bump(older, (r) => {
      r.tokens = ["OLD"];
    });
    expect(await store.compareAndSet(1, changed)).toBe(true);
    expect((await store.findByToken("SHARED"))?.id).toBe(newer.id);
  });

  it("lists oldest first with ties broken by id, also for filters without an index of their own", async () => {
    const store = await open({ url: server().url, keyPrefix: freshPrefix() });
    const b = sampleRecord({ id: "b", createdAt: 5, target: { channel: "slack", conversation: "C1" } });
    const a = sampleRecord({ id: "a", createdAt: 5, target: { channel: "tg", conversation: "C1" } });
    const c = sampleRecord({ id: "c", createdAt: 1, target: { channel: "slack", conversation: "C2" } });
    for (const record of [b, a, c]) await store.create(record);
    expect((await store.list()).map((r) => r.id)).toEqual(["c", "a", "b"]);
    expect((await store.list({ channel: "slack" })).map((r) => r.id)).toEqual(["c", "b"]);
    expect((await store.list({ conversation: "C1" })).map((r) => r.id)).toEqual(["a", "b"]);
  });
});

describe("atomic writes", () => {
  it("lets exactly one of 100 concurrent compare-and-sets from two instances win, and announces it once", async () => {
    const keyPrefix = freshPrefix();
    const [mine, theirs] = await Promise.all([
      open({ url: server().url, keyPrefix }),
      open({ url: server().url, keyPrefix }),
    ]);
    const heard = new Map<string, StoreChange[]>([
      ["mine", []],
      ["theirs", []],
    ]);
    mine.subscribe((change) => heard.get("mine")?.push(change));
    theirs.subscribe((change) => heard.get("theirs")?.push(change));
    const record = sampleRecord();
    await mine.create(record);
    const attempts = Array.from({ length: 100 }, (_, i) =>
      (i % 2 ? theirs : mine).compareAndSet(
        1,
        bump(record, (r) => {
          r.status = "answered";
          r.answers = { deploy_target: [`answer ${i}`] };
        }),
      ),
    );
    const results = await Promise.all(attempts);
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = results.indexOf(true);
    expect((await theirs.get(record.id))?.answers).toEqual({ deploy_target: [`answer ${winner}`] });
    const expected = [
      [1, undefined, undefined],
      [2, { deploy_target: [`answer ${winner}`] }, "pending"],
    ];
    const seen = (who: string) =>
      (heard.get(who) ?? []).map((c) => [c.record.version, c.record.answers, c.previousStatus]);
    await vi.waitFor(() => expect([seen("mine"), seen("theirs")]).toEqual([expected, expected]));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect([seen("mine"), seen("theirs")]).toEqual([expected, expected]);
  });

  it("keeps working after SCRIPT FLUSH removed its Lua scripts from the server", async () => {
    const store = await open({ url: server().url, keyPrefix: freshPrefix() });
    const record = sampleRecord({ tokens: ["T1"] });
    await store.create(record);
    await client(server().url).script("FLUSH");
    const next = bump(record, (r) => {
      r.status = "skipped";
    });
    const [written, stale] = await Promise.all([
      store.compareAndSet(1, next),
      store.compareAndSet(
        1,
        bump(record, () => undefined),
      ),
    ]);
    expect([written, stale]).toEqual([true, false]);
    await client(server().url).script("FLUSH");
    expect(await store.findByToken("T1")).toEqual(next);
    await client(server().url).script("FLUSH");
    expect(await store.list({ status: "skipped" })).toEqual([next]);
  });
});

describe("errors and closing", () => {
  it("turns a Redis error into store_failure with the Redis error as cause", async () => {
    const keyPrefix = freshPrefix();
    const store = await open({ url: server().url, keyPrefix });
    await client(server().url).set(keysFor(keyPrefix).record("broken"), "not a hash");
    const failure = await store.get("broken").catch((error: unknown) => error);
    expect(failure).toSatisfy(rejectsWith("store_failure"));
    expect(String((failure as Error).cause)).toContain("WRONGTYPE");
    await expect(store.create(sampleRecord({ id: "broken" }))).rejects.toSatisfy(
      rejectsWith("store_failure"),
    );
  });

  it("after close, rejects every call with closed and has quit both connections", async () => {
    const redis = client(server().url);
    const names = async () => String(await redis.client("LIST")).match(/name=ask-user-close-test\S*/g) ?? [];
    const store = await open({
      url: server().url,
      keyPrefix: freshPrefix(),
      redis: { connectionName: "ask-user-close-test" },
    });
    expect((await names()).sort()).toEqual(["name=ask-user-close-test", "name=ask-user-close-test:changes"]);
    await store.close();
    await store.close();
    await vi.waitFor(async () => expect(await names()).toEqual([]));
    await expect(store.get("x")).rejects.toSatisfy(rejectsWith("closed"));
    await expect(store.create(sampleRecord())).rejects.toSatisfy(rejectsWith("closed"));
    await expect(store.compareAndSet(1, sampleRecord({ version: 2 }))).rejects.toSatisfy(
      rejectsWith("closed"),
    );
    await expect(store.list()).rejects.toSatisfy(rejectsWith("closed"));
    await expect(store.findByToken("T")).rejects.toSatisfy(rejectsWith("closed"));
    await expect(store.findByMessage("a", "b", "c")).rejects.toSatisfy(rejectsWith("closed"));
    expect(() => store.subscribe(() => undefined)).toThrow(expect.objectContaining({ code: "closed" }));
  });
});
