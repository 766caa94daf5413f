import { expect, it } from "vitest";
import type { QuestionStore } from "../ports/store.ts";
import { sampleRecord } from "./records.ts";

/**
 * The listing part of the store contract (filters, order, pages, the repair index), run by
 * `storeContractTests` inside its suite; `fresh` gives a new, empty store.
 */
export function listContractTests(fresh: () => Promise<QuestionStore>): void {
  it("lists by status, run and conversation, oldest first", async () => {
    const store = await fresh();
    const a = sampleRecord({ createdAt: 30, runId: "r1" });
    const b = sampleRecord({
      createdAt: 10,
      runId: "r2",
      target: { channel: "slack", conversation: "C1" },
    });
    const c = sampleRecord({ createdAt: 20, runId: "r1", status: "expired" });
    for (const record of [a, b, c]) await store.create(record);
    expect((await store.list()).map((r) => r.id)).toEqual([b.id, c.id, a.id]);
    expect((await store.list({ status: "pending" })).map((r) => r.id)).toEqual([b.id, a.id]);
    expect((await store.list({ runId: "r1" })).map((r) => r.id)).toEqual([c.id, a.id]);
    expect((await store.list({ status: "pending", runId: "r1" })).map((r) => r.id)).toEqual([a.id]);
    expect((await store.list({ channel: "slack", conversation: "C1" })).map((r) => r.id)).toEqual([b.id]);
    expect(await store.list({ channel: "slack", conversation: "C2" })).toEqual([]);
  });

  it("lists page by page, after a position, with filters, through the same order", async () => {
    const store = await fresh();
    const records = Array.from({ length: 7 }, (_, i) =>
      sampleRecord({ createdAt: 100 + Math.floor(i / 2), status: i === 3 ? "expired" : "pending" }),
    );
    for (const record of [...records].reverse()) await store.create(record);
    const all = (await store.list()).map((r) => r.id);
    const paged: string[] = [];
    let after: { createdAt: number; id: string } | undefined;
    for (let guard = 0; guard < 10; guard++) {
      const page = await store.list({}, after ? { limit: 3, after } : { limit: 3 });
      paged.push(...page.map((r) => r.id));
      const last = page.at(-1);
      if (page.length < 3 || !last) break;
      after = { createdAt: last.createdAt, id: last.id };
    }
    expect(paged).toEqual(all);
    const pending = (await store.list({ status: "pending" })).map((r) => r.id);
    const first = await store.list({ status: "pending" }, { limit: 4 });
    const last = first.at(-1);
    if (!last) throw new Error("empty page");
    const rest = await store.list({ status: "pending" }, { limit: 4, after: last });
    expect([...first, ...rest].map((r) => r.id)).toEqual(pending);
    expect(await store.list({}, { limit: 0 })).toEqual([]);
  });

  it("lists the records that need repair through its index, as writes change them", async () => {
    const store = await fresh();
    const prompt = { channel: "telegram", conversation: "100", messageId: "7", kind: "prompt" as const };
    const undelivered = sampleRecord({ createdAt: 10 });
    const delivered = sampleRecord({ createdAt: 20, deliveries: [prompt] });
    const unedited = sampleRecord({
      createdAt: 30,
      status: "expired",
      deliveries: [{ ...prompt, messageId: "8" }],
    });
    const edited = sampleRecord({
      createdAt: 40,
      status: "expired",
      deliveries: [{ ...prompt, messageId: "9", finalizedAt: 5 }],
    });
    const operatorOnly = sampleRecord({ createdAt: 50 });
    delete operatorOnly.target;
    for (const record of [undelivered, delivered, unedited, edited, operatorOnly]) await store.create(record);
    const ids = async () => (await store.list({ needsRepair: true })).map((r) => r.id);
    expect(await ids()).toEqual([undelivered.id, unedited.id]);
    const now = await store.get(undelivered.id);
    if (!now) throw new Error("missing");
    expect(
      await store.compareAndSet(1, { ...now, version: 2, deliveries: [{ ...prompt, messageId: "10" }] }),
    ).toBe(true);
    const done = { ...unedited, version: 2, deliveries: [{ ...prompt, messageId: "8", abandonedAt: 6 }] };
    expect(await store.compareAndSet(1, done)).toBe(true);
    expect(await ids()).toEqual([]);
    expect(await store.list({ needsRepair: true, status: "pending" })).toEqual([]);
  });
}
