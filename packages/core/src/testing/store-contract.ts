import { afterEach, describe, expect, it } from "vitest";
import { AskUserError } from "../model/errors.ts";
import type { QuestionRecord } from "../model/types.ts";
import type { QuestionStore, StoreChange } from "../ports/store.ts";
import { coordinationContractTests } from "./coordination-contract.ts";
import { listContractTests } from "./list-contract.ts";
import { sampleRecord } from "./records.ts";

/** Options of the contract suite. */
export interface StoreContractOptions {
  /** Name shown in the test report. */
  name?: string;
  /** A second store over the same data (another process's view): cross-instance tests run when given. */
  makePeer?: (store: QuestionStore) => Promise<QuestionStore> | QuestionStore;
  /** The peer's subscribers see the first store's writes (a shared store such as Redis). */
  peerSeesChanges?: boolean;
}

async function waitFor<T>(read: () => T | undefined, timeoutMs = 2000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function bump(record: QuestionRecord, change: (r: QuestionRecord) => void): QuestionRecord {
  const next = structuredClone(record);
  change(next);
  next.version = record.version + 1;
  return next;
}

/**
 * The suite every `QuestionStore` must pass. Call it inside a test file; `makeStore` returns a fresh,
 * empty store each time (stores are closed after each test).
 *
 * @example
 * storeContractTests(() => createMemoryStore(), { name: "memory" });
 */
export function storeContractTests(
  makeStore: () => Promise<QuestionStore> | QuestionStore,
  options: StoreContractOptions = {},
): void {
  describe(`QuestionStore contract${options.name ? `: ${options.name}` : ""}`, () => {
    const open: QuestionStore[] = [];
    async function fresh(): Promise<QuestionStore> {
      const store = await makeStore();
      open.push(store);
      return store;
    }
    afterEach(async () => {
      for (const store of open.splice(0).reverse()) await store.close();
    });

    it("returns what was created, as an equal copy", async () => {
      const store = await fresh();
      const record = sampleRecord({
        runId: "run-1",
        creator: { channel: "telegram", userId: "7", displayName: "@alice" },
      });
      await store.create(record);
      expect(await store.get(record.id)).toEqual(record);
      expect(await store.get("no-such-id")).toBeUndefined();
    });

    it("keeps every field, including optional ones and unicode text", async () => {
      const store = await fresh();
      const record = sampleRecord({
        runId: "run-ü",
        answers: { deploy_target: ["Staging (Recommended)", "straße 🚀"] },
        draft: { other: ["x"] },
        awaitingText: { channel: "telegram", userId: "9", questionIndex: 0 },
        resolvedBy: { channel: "web", userId: "operator", displayName: "Operator" },
        resolvedAt: 5,
        error: "ECONNREFUSED",
        answerers: { kind: "users", userIds: ["1", "2"] },
        deliveries: [
          { channel: "telegram", conversation: "100", messageId: "42", kind: "prompt", finalizedAt: 9 },
        ],
      });
      await store.create(record);
      expect(await store.get(record.id)).toEqual(record);
    });

    it("never shares objects with its callers", async () => {
      const store = await fresh();
      const record = sampleRecord();
      await store.create(record);
      record.status = "answered";
      const read = await store.get(record.id);
      expect(read?.status).toBe("pending");
      if (read) read.deliveries.push({ channel: "x", conversation: "y", messageId: "z", kind: "prompt" });
      expect((await store.get(record.id))?.deliveries).toEqual([]);
    });

    it("refuses a second record with the same id", async () => {
      const store = await fresh();
      const record = sampleRecord();
      await store.create(record);
      await expect(store.create(sampleRecord({ id: record.id }))).rejects.toSatisfy(
        (error: unknown) => error instanceof AskUserError && error.code === "store_conflict",
      );
    });

    it("compare-and-set writes only over the expected version", async () => {
      const store = await fresh();
      const record = sampleRecord();
      await store.create(record);
      const next = bump(record, (r) => {
        r.status = "answered";
      });
      expect(await store.compareAndSet(1, next)).toBe(true);
      expect(await store.get(record.id)).toEqual(next);
      const stale = bump(record, (r) => {
        r.status = "skipped";
      });
      expect(await store.compareAndSet(1, stale)).toBe(false);
      expect((await store.get(record.id))?.status).toBe("answered");
      expect(await store.compareAndSet(2, { ...next, version: 9 })).toBe(false);
      expect(await store.compareAndSet(1, sampleRecord({ version: 2 }))).toBe(false);
    });

    it("lets exactly one of many concurrent writers win", async () => {
      const store = await fresh();
      const record = sampleRecord();
      await store.create(record);
      const attempts = Array.from({ length: 50 }, (_, i) =>
        store.compareAndSet(
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
      expect((await store.get(record.id))?.answers).toEqual({ deploy_target: [`answer ${winner}`] });
    });

    listContractTests(fresh);

    it("finds a record by action token and by delivered message", async () => {
      const store = await fresh();
      const record = sampleRecord({ tokens: ["AAAAAAAAAAAAAAAA", "BBBBBBBBBBBBBBBB"] });
      await store.create(record);
      expect((await store.findByToken("BBBBBBBBBBBBBBBB"))?.id).toBe(record.id);
      expect(await store.findByToken("CCCCCCCCCCCCCCCC")).toBeUndefined();
      expect(await store.findByMessage("telegram", "100", "42")).toBeUndefined();
      const next = bump(record, (r) => {
        r.deliveries.push({ channel: "telegram", conversation: "100", messageId: "42", kind: "prompt" });
      });
      expect(await store.compareAndSet(1, next)).toBe(true);
      expect((await store.findByMessage("telegram", "100", "42"))?.id).toBe(record.id);
      expect(await store.findByMessage("telegram", "101", "42")).toBeUndefined();
      expect(await store.findByMessage("discord", "100", "42")).toBeUndefined();
    });

    it("tells subscribers about every write, in order, until they unsubscribe", async () => {
      const store = await fresh();
      const seen: StoreChange[] = [];
      const stop = store.subscribe((change) => seen.push(change));
      const record = sampleRecord();
      await store.create(record);
      const next = bump(record, (r) => {
        r.status = "skipped";
      });
      await store.compareAndSet(1, next);
      await waitFor(() => (seen.length >= 2 ? true : undefined));
      expect(seen.map((c) => [c.record.id, c.record.version, c.record.status, c.previousStatus])).toEqual([
        [record.id, 1, "pending", undefined],
        [record.id, 2, "skipped", "pending"],
      ]);
      stop();
      await store.compareAndSet(
        2,
        bump(next, () => undefined),
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(seen).toHaveLength(2);
    });

    it("prunes ended records whose deadline is past the cutoff, never pending ones", async () => {
      const store = await fresh();
      const delivered = [
        { channel: "telegram", conversation: "100", messageId: "77", kind: "prompt" as const },
      ];
      const old = sampleRecord({
        status: "answered",
        expiresAt: 1_000,
        tokens: ["OOOOOOOOOOOOOOOO"],
        deliveries: delivered,
      });
      const oldPending = sampleRecord({ status: "pending", expiresAt: 1_000 });
      const recent = sampleRecord({ status: "expired", expiresAt: 5_000 });
      for (const record of [old, oldPending, recent]) await store.create(record);
      expect(await store.prune(2_000)).toBe(1);
      expect(await store.get(old.id)).toBeUndefined();
      expect(await store.findByToken("OOOOOOOOOOOOOOOO")).toBeUndefined();
      expect(await store.findByMessage("telegram", "100", "77")).toBeUndefined();
      expect((await store.list()).map((r) => r.id).sort()).toEqual([oldPending.id, recent.id].sort());
      expect(await store.prune(2_000)).toBe(0);
      // The id is free again, as if it had never been used.
      await store.create(sampleRecord({ id: old.id }));
      expect((await store.get(old.id))?.status).toBe("pending");
    });

    coordinationContractTests(
      fresh,
      options.makePeer && {
        makePeer: options.makePeer,
        track: (peer: QuestionStore) => open.push(peer),
      },
    );

    if (options.makePeer) {
      const makePeer = options.makePeer;
      it("shares records and compare-and-set with another instance", async () => {
        const store = await fresh();
        const peer = await makePeer(store);
        open.push(peer);
        const record = sampleRecord();
        await store.create(record);
        expect(await peer.get(record.id)).toEqual(record);
        const mine = bump(record, (r) => {
          r.status = "answered";
        });
        const theirs = bump(record, (r) => {
          r.status = "skipped";
        });
        const results = await Promise.all([store.compareAndSet(1, mine), peer.compareAndSet(1, theirs)]);
        expect(results.filter(Boolean)).toHaveLength(1);
        expect((await store.get(record.id))?.status).toBe((await peer.get(record.id))?.status);
      });

      if (options.peerSeesChanges) {
        it("tells the other instance's subscribers about writes", async () => {
          const store = await fresh();
          const peer = await makePeer(store);
          open.push(peer);
          const seen: StoreChange[] = [];
          peer.subscribe((change) => seen.push(change));
          const record = sampleRecord();
          await store.create(record);
          await store.compareAndSet(
            1,
            bump(record, (r) => {
              r.status = "answered";
            }),
          );
          const last = await waitFor(() => seen.find((c) => c.record.status === "answered"));
          expect(last.previousStatus).toBe("pending");
          expect(last.record.id).toBe(record.id);
        });
      }
    }
  });
}
