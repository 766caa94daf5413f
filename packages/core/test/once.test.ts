import { describe, expect, it } from "vitest";
import { createOnce } from "../src/channels/once.ts";
import { type Coordination, createMemoryCoordination } from "../src/ports/coordination.ts";
import { createFakeClock } from "../src/testing/fake-clock.ts";
import { recordingLogger, T0 } from "./helpers.ts";

const TTL_MS = 60_000;

/** A shared store that can go down (its writes throw) and says which keys were written. */
function flakyStore(shared: Coordination = createMemoryCoordination()) {
  const store = {
    down: false,
    /** Only the marking writes fail (the claim got through). */
    downAfterFirst: false,
    keys: [] as string[],
    async firstSeen(key: string, ttlMs: number) {
      if (store.down) throw new Error("connection refused");
      if (store.downAfterFirst && store.keys.length > 0) throw new Error("connection reset");
      store.keys.push(key);
      return shared.firstSeen(key, ttlMs);
    },
    acquireLease: shared.acquireLease,
    releaseLease: shared.releaseLease,
  };
  return store;
}

function once(coordination?: Coordination, attempts?: number) {
  const logger = recordingLogger();
  const handled = createOnce({
    ...(coordination ? { coordination } : {}),
    ...(attempts === undefined ? {} : { attempts }),
    ttlMs: TTL_MS,
    logger,
    channel: "chat",
  });
  return { once: handled, logger };
}

describe("once.take", () => {
  it("is true the first time a key is seen and false for a copy", async () => {
    const { once: handled } = once();
    expect(await handled.take("chat:event:1")).toBe(true);
    expect(await handled.take("chat:event:1")).toBe(false);
    expect(await handled.take("chat:event:2")).toBe(true);
  });

  it("is true and warns when the store cannot say (fail-open)", async () => {
    const store = flakyStore();
    store.down = true;
    const { once: handled, logger } = once(store);
    expect(await handled.take("chat:event:1")).toBe(true);
    expect(logger.lines).toEqual([
      {
        level: "warn",
        message: "could not check whether this was handled already; handling it",
        details: { channel: "chat", key: "chat:event:1", err: expect.stringContaining("connection refused") },
      },
    ]);
  });

  it("forgets a key after its time to live without a shared store", async () => {
    const clock = createFakeClock(T0);
    const { once: handled } = once(createMemoryCoordination(clock));
    expect(await handled.take("chat:event:1")).toBe(true);
    await clock.advance(TTL_MS - 1);
    expect(await handled.take("chat:event:1")).toBe(false);
    await clock.advance(1);
    expect(await handled.take("chat:event:1")).toBe(true);
  });
});

describe("once.run", () => {
  it("runs the work once and drops a copy delivered after it succeeded", async () => {
    const { once: handled } = once();
    let runs = 0;
    const work = async () => {
      runs++;
    };
    expect(await handled.run("chat:update:7", work)).toBe(true);
    expect(await handled.run("chat:update:7", work)).toBe(false);
    expect(await handled.run("chat:update:7", work)).toBe(false);
    expect(runs).toBe(1);
  });

  it("runs a redelivery after a failure, rethrowing the failure, then drops copies", async () => {
    const { once: handled } = once();
    let runs = 0;
    await expect(
      handled.run("chat:update:7", async () => {
        runs++;
        throw new Error("store locked");
      }),
    ).rejects.toThrow("store locked");
    const work = async () => {
      runs++;
    };
    expect(await handled.run("chat:update:7", work)).toBe(true);
    expect(await handled.run("chat:update:7", work)).toBe(false);
    expect(runs).toBe(2);
  });

  it("marks the later tries in the shared store when the work succeeds", async () => {
    const store = flakyStore();
    const { once: handled } = once(store);
    await handled.run("chat:update:7", async () => undefined);
    expect(store.keys).toEqual(["chat:update:7", "chat:update:7:retry:1", "chat:update:7:retry:2"]);
  });

  it("returns false without running once every try failed", async () => {
    const { once: handled } = once(undefined, 2);
    const failing = async () => {
      throw new Error("boom");
    };
    await expect(handled.run("chat:update:7", failing)).rejects.toThrow("boom");
    await expect(handled.run("chat:update:7", failing)).rejects.toThrow("boom");
    let ran = false;
    expect(
      await handled.run("chat:update:7", async () => {
        ran = true;
      }),
    ).toBe(false);
    expect(ran).toBe(false);
  });

  it("runs the work and warns when the store fails while claiming (fail-open)", async () => {
    const store = flakyStore();
    store.down = true;
    const { once: handled, logger } = once(store);
    let runs = 0;
    expect(
      await handled.run("chat:update:7", async () => {
        runs++;
      }),
    ).toBe(true);
    expect(runs).toBe(1);
    expect(logger.lines.map((line) => [line.level, line.message, line.details.key])).toEqual([
      ["warn", "could not check whether this was handled already; handling it", "chat:update:7"],
    ]);
  });

  it("warns when it cannot mark the later tries, and still counts the work as run", async () => {
    const store = flakyStore();
    store.downAfterFirst = true;
    const { once: handled, logger } = once(store);
    expect(await handled.run("chat:update:7", async () => undefined)).toBe(true);
    expect(logger.lines.map((line) => [line.level, line.message])).toEqual([
      ["warn", "could not mark this handled in the shared store; a redelivery would run it again"],
    ]);
  });

  it("runs a key once between two instances sharing one store, and a failed one again on the other", async () => {
    const shared = createMemoryCoordination();
    const a = once(shared).once;
    const b = once(shared).once;
    const taken = await Promise.all([a.take("chat:event:1"), b.take("chat:event:1")]);
    expect(taken.sort()).toEqual([false, true]);

    const ran: string[] = [];
    await expect(
      a.run("chat:update:7", async () => {
        throw new Error("store locked");
      }),
    ).rejects.toThrow("store locked");
    expect(await b.run("chat:update:7", async () => void ran.push("b"))).toBe(true);
    expect(await a.run("chat:update:7", async () => void ran.push("a"))).toBe(false);
    expect(ran).toEqual(["b"]);
  });

  it("lets a copy that arrives while the first try still runs take the next try (the known gap)", async () => {
    const shared = createMemoryCoordination();
    const a = once(shared).once;
    const b = once(shared).once;
    let release = () => {};
    const slow = new Promise<void>((resolve) => {
      release = resolve;
    });
    const first = a.run("chat:update:7", () => slow);
    let copyRan = false;
    expect(
      await b.run("chat:update:7", async () => {
        copyRan = true;
      }),
    ).toBe(true);
    release();
    expect(await first).toBe(true);
    expect(copyRan).toBe(true);
    expect(await b.run("chat:update:7", async () => undefined)).toBe(false);
  });

  it("refuses attempts below one", () => {
    expect(() => once(undefined, 0)).toThrow(/attempts must be a whole number of at least 1/);
  });
});
