import { expect, it } from "vitest";
import type { QuestionStore } from "../ports/store.ts";

/**
 * The `Coordination` part of the store contract (dedupe keys and leases), run by
 * `storeContractTests` inside its suite: `fresh` gives a new store; with `shared`, a second instance
 * over the same data must see the first one's keys and leases.
 */
export function coordinationContractTests(
  fresh: () => Promise<QuestionStore>,
  shared?: {
    makePeer: (store: QuestionStore) => Promise<QuestionStore> | QuestionStore;
    /** Closes the peer after the test with the other stores. */
    track: (peer: QuestionStore) => void;
  },
): void {
  it("sees a key first once until it expires", async () => {
    // Long marks where only being seen matters (a slow commit under load must not let one run out);
    // a short one where running out is the point.
    const store = await fresh();
    expect(await store.firstSeen("update:1", 60_000)).toBe(true);
    expect(await store.firstSeen("update:1", 60_000)).toBe(false);
    expect(await store.firstSeen("update:2", 60_000)).toBe(true);
    const racing = await Promise.all(Array.from({ length: 8 }, () => store.firstSeen("update:3", 60_000)));
    expect(racing.filter(Boolean)).toHaveLength(1);
    expect(await store.firstSeen("update:4", 300)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await store.firstSeen("update:4", 60_000)).toBe(true); // its mark ran out
    expect(await store.firstSeen("update:4", 60_000)).toBe(false);
  });

  it("gives a lease to one holder at a time, renews it, and frees it on release or expiry", async () => {
    // Long leases where only holding matters (a slow commit under load must not let one run out);
    // a short one where running out is the point.
    const store = await fresh();
    expect(await store.acquireLease("poll", "a", 60_000)).toBe(true);
    expect(await store.acquireLease("poll", "b", 60_000)).toBe(false);
    expect(await store.acquireLease("poll", "a", 60_000)).toBe(true); // renewed
    await store.releaseLease("poll", "b"); // not b's to release
    expect(await store.acquireLease("poll", "b", 60_000)).toBe(false);
    await store.releaseLease("poll", "a");
    expect(await store.acquireLease("poll", "b", 300)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await store.acquireLease("poll", "a", 60_000)).toBe(true); // b's ran out
    const racing = await Promise.all(["c", "d", "e"].map((h) => store.acquireLease("other", h, 60_000)));
    expect(racing.filter(Boolean)).toHaveLength(1);
  });

  it("tells who holds a lease, and nobody once it is released or ran out", async () => {
    const store = await fresh();
    expect(await store.leaseHolder("alive:a")).toBeUndefined();
    expect(await store.acquireLease("alive:a", "boot-1", 60_000)).toBe(true);
    expect(await store.leaseHolder("alive:a")).toBe("boot-1");
    await store.releaseLease("alive:a", "boot-1");
    expect(await store.leaseHolder("alive:a")).toBeUndefined();
    expect(await store.acquireLease("alive:b", "boot-2", 300)).toBe(true);
    expect(await store.leaseHolder("alive:b")).toBe("boot-2");
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await store.leaseHolder("alive:b")).toBeUndefined(); // ran out: its holder is gone
  });

  if (shared) {
    it("shares dedupe keys and leases with another instance", async () => {
      const store = await fresh();
      const peer = await shared.makePeer(store);
      shared.track(peer);
      expect(await store.firstSeen("shared:1", 5_000)).toBe(true);
      expect(await peer.firstSeen("shared:1", 5_000)).toBe(false);
      expect(await store.acquireLease("shared-lease", "a", 5_000)).toBe(true);
      expect(await peer.acquireLease("shared-lease", "b", 5_000)).toBe(false);
      expect(await peer.leaseHolder("shared-lease")).toBe("a");
    });
  }
}
