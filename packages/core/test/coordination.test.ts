import { describe, expect, it } from "vitest";
import {
  type Coordination,
  createMemoryCoordination,
  keepLease,
  MEMORY_SEEN_MAX,
} from "../src/ports/coordination.ts";
import { createFakeClock } from "../src/testing/fake-clock.ts";
import { T0 } from "./helpers.ts";

function keeper(coordination: Coordination, holder: string, clock: ReturnType<typeof createFakeClock>) {
  const log: string[] = [];
  const lease = keepLease({
    coordination,
    name: "telegram:1:polling",
    holder,
    ttlMs: 6_000,
    clock,
    onAcquired: () => {
      log.push("start");
    },
    onLost: () => {
      log.push("stop");
    },
  });
  return { lease, log };
}

describe("keepLease", () => {
  it("lets one instance hold the connection, and hands it over when that one stops", async () => {
    const clock = createFakeClock(T0);
    const shared = createMemoryCoordination(clock);
    const a = keeper(shared, "a", clock);
    await clock.advance(0);
    const b = keeper(shared, "b", clock);
    await clock.advance(10_000);
    expect([a.lease.held, b.lease.held]).toEqual([true, false]);
    expect(a.log).toEqual(["start"]);
    await a.lease.stop();
    expect(a.log).toEqual(["start", "stop"]);
    await clock.advance(2_000);
    expect(b.lease.held).toBe(true);
    expect(b.log).toEqual(["start"]);
    await b.lease.stop();
  });

  it("takes over from a holder that died without releasing, once its lease runs out", async () => {
    const clock = createFakeClock(T0);
    const shared = createMemoryCoordination(clock);
    let alive = true;
    const flaky: Coordination = {
      ...shared,
      acquireLease: async (...args) => {
        if (!alive) throw new Error("connection lost");
        return shared.acquireLease(...args);
      },
    };
    const a = keeper(flaky, "a", clock);
    await clock.advance(0);
    const b = keeper(shared, "b", clock);
    await clock.advance(4_000);
    alive = false; // a can no longer renew: it stops its connection at its next try
    let takenAt = 0;
    for (let ms = 0; ms <= 10_000 && takenAt === 0; ms += 500) {
      await clock.advance(500);
      if (b.lease.held) takenAt = ms + 500;
    }
    expect(a.log).toEqual(["start", "stop"]);
    expect(takenAt).toBeGreaterThan(0);
    expect(takenAt).toBeLessThanOrEqual(8_000);
    await Promise.all([a.lease.stop(), b.lease.stop()]);
  });
});

describe("memory coordination's marks", () => {
  it("forgets expired marks and, past its bound, the oldest live one — never a recent one", async () => {
    const clock = createFakeClock(T0);
    const memory = createMemoryCoordination(clock);
    expect(await memory.firstSeen("old", 1_000)).toBe(true);
    await clock.advance(2_000);
    for (let n = 0; n < MEMORY_SEEN_MAX; n++) await memory.firstSeen(`live:${n}`, 86_400_000);
    // "old" expired and was forgotten at once; the bound then dropped only the first live mark.
    expect(await memory.firstSeen("old", 1_000)).toBe(true);
    expect(await memory.firstSeen("live:0", 86_400_000)).toBe(true);
    expect(await memory.firstSeen(`live:${MEMORY_SEEN_MAX - 1}`, 86_400_000)).toBe(false);
    expect(await memory.firstSeen("live:5000", 86_400_000)).toBe(false);
  });
});
