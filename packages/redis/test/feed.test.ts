import type { StoreChange } from "@ask-user/core/store";
import { sampleRecord } from "@ask-user/core/testing";
import { describe, expect, it, vi } from "vitest";
import { compareStreamIds } from "../src/feed.ts";
import { bump, connections, recordingLogger } from "./helpers.ts";
import { freshPrefix, useRedisServer } from "./redis-server.ts";

const server = useRedisServer();
const { open, client } = connections();

const summary = (changes: StoreChange[]) =>
  changes.map((c) => [c.record.id, c.record.version, c.record.status, c.previousStatus]);

describe("change feed", () => {
  it("gives every subscriber every change of every instance, in write order, each its own copy", async () => {
    const keyPrefix = freshPrefix();
    const [mine, theirs] = await Promise.all([
      open({ url: server().url, keyPrefix }),
      open({ url: server().url, keyPrefix }),
    ]);
    const first: StoreChange[] = [];
    const second: StoreChange[] = [];
    mine.subscribe((change) => {
      change.record.status = "cancelled"; // must not reach the other subscriber
      first.push(change);
    });
    mine.subscribe((change) => second.push(change));
    const a = sampleRecord();
    const b = sampleRecord();
    await theirs.create(a);
    await mine.create(b);
    const a2 = bump(a, (r) => {
      r.status = "answered";
    });
    await theirs.compareAndSet(1, a2);
    await mine.compareAndSet(
      1,
      bump(b, (r) => {
        r.status = "expired";
      }),
    );
    await vi.waitFor(() => expect(second).toHaveLength(4));
    expect(summary(second)).toEqual([
      [a.id, 1, "pending", undefined],
      [b.id, 1, "pending", undefined],
      [a.id, 2, "answered", "pending"],
      [b.id, 2, "expired", "pending"],
    ]);
    expect(second[2]?.record).toEqual(a2);
    expect(first.map((c) => c.record.status)).toEqual(["cancelled", "cancelled", "cancelled", "cancelled"]);
  });

  it("reports a subscriber that throws and still tells the others", async () => {
    const logger = recordingLogger();
    const store = await open({ url: server().url, keyPrefix: freshPrefix(), logger });
    const heard: StoreChange[] = [];
    store.subscribe(() => {
      throw new Error("listener bug");
    });
    store.subscribe((change) => heard.push(change));
    const record = sampleRecord();
    await store.create(record);
    await vi.waitFor(() => expect(heard).toHaveLength(1));
    expect(logger.lines).toEqual([
      {
        level: "error",
        message: "store subscriber failed",
        details: { questionId: record.id, err: "Error: listener bug" },
      },
    ]);
  });

  it("delivers changes written while its subscriber connection was down, once each, in order", async () => {
    const keyPrefix = freshPrefix();
    const logger = recordingLogger();
    // Reconnect only after a second, so the writes below certainly fall into the gap.
    const listening = await open({
      url: server().url,
      keyPrefix,
      logger,
      redis: { retryStrategy: () => 1000 },
    });
    const writer = await open({ url: server().url, keyPrefix });
    const heard: StoreChange[] = [];
    listening.subscribe((change) => heard.push(change));
    const record = sampleRecord();
    await writer.create(record);
    await vi.waitFor(() => expect(heard).toHaveLength(1));

    // Drop every subscriber connection, then write before they have reconnected: pub/sub loses these
    // messages; the catch-up read from the change stream must not.
    const killed = await client(server().url).client("KILL", "TYPE", "pubsub");
    expect(Number(killed)).toBeGreaterThanOrEqual(2);
    const answered = bump(record, (r) => {
      r.status = "answered";
    });
    expect(await writer.compareAndSet(1, answered)).toBe(true);
    const later = sampleRecord();
    await writer.create(later);

    await vi.waitFor(() => expect(heard).toHaveLength(3), { timeout: 5000 });
    await writer.create(sampleRecord()); // live again
    await vi.waitFor(() => expect(heard).toHaveLength(4));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(summary(heard).slice(0, 3)).toEqual([
      [record.id, 1, "pending", undefined],
      [record.id, 2, "answered", "pending"],
      [later.id, 1, "pending", undefined],
    ]);
    expect(heard).toHaveLength(4);
    expect(logger.lines.filter((line) => line.level === "error")).toEqual([]);
  });

  it("keeps namespaces apart: another key prefix sees neither the records nor the changes", async () => {
    const [one, other] = await Promise.all([
      open({ url: server().url, keyPrefix: freshPrefix() }),
      open({ url: server().url, keyPrefix: freshPrefix() }),
    ]);
    const heard: StoreChange[] = [];
    other.subscribe((change) => heard.push(change));
    const record = sampleRecord({ tokens: ["T-shared"] });
    await one.create(record);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await other.get(record.id)).toBeUndefined();
    expect(await other.findByToken("T-shared")).toBeUndefined();
    expect(await other.list()).toEqual([]);
    expect(heard).toEqual([]);
  });

  it("orders stream ids by time, then by sequence", () => {
    expect(["10-1", "9-5", "10-0", "100-0"].sort(compareStreamIds)).toEqual(["9-5", "10-0", "10-1", "100-0"]);
  });
});
