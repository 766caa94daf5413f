import { describe, expect, it } from "vitest";
import { createMemoryStore } from "../src/stores/memory.ts";
import { sampleRecord } from "../src/testing/records.ts";
import { storeContractTests } from "../src/testing/store-contract.ts";

storeContractTests(() => createMemoryStore(), { name: "memory" });

describe("memory store", () => {
  it("forgets a token and a message that a write dropped, as the durable stores do", async () => {
    const store = createMemoryStore();
    const record = sampleRecord({
      tokens: ["AAAAAAAAAAAAAAAA", "BBBBBBBBBBBBBBBB"],
      deliveries: [{ channel: "telegram", conversation: "1", messageId: "10", kind: "prompt" }],
    });
    await store.create(record);
    const next = {
      ...structuredClone(record),
      version: 2,
      tokens: ["AAAAAAAAAAAAAAAA"],
      deliveries: [{ channel: "telegram", conversation: "1", messageId: "11", kind: "prompt" as const }],
    };
    expect(await store.compareAndSet(1, next)).toBe(true);
    expect((await store.findByToken("AAAAAAAAAAAAAAAA"))?.version).toBe(2);
    expect(await store.findByToken("BBBBBBBBBBBBBBBB")).toBeUndefined();
    expect(await store.findByMessage("telegram", "1", "10")).toBeUndefined();
    expect((await store.findByMessage("telegram", "1", "11"))?.version).toBe(2);
  });

  it("routes by conversation among pending questions only, and keeps no answered one there", async () => {
    const store = createMemoryStore();
    const room = { channel: "telegram", conversation: "1" };
    const asked = sampleRecord({ id: "asked", target: room, createdAt: 2 });
    const ended = sampleRecord({ id: "ended", target: room, createdAt: 1 });
    await store.create(asked);
    await store.create(ended);
    await store.compareAndSet(1, { ...structuredClone(ended), version: 2, status: "answered" });
    const pendingHere = { status: "pending" as const, ...room };
    expect((await store.list(pendingHere)).map((r) => r.id)).toEqual(["asked"]);
    expect((await store.list({ ...room })).map((r) => r.id)).toEqual(["ended", "asked"]);
    await store.compareAndSet(1, { ...structuredClone(asked), version: 2, status: "cancelled" });
    expect(await store.list(pendingHere)).toEqual([]);
  });
});
