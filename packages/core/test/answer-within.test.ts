import { describe, expect, it } from "vitest";
import { createBackground } from "../src/channels/answer-within.ts";
import { recordingLogger } from "./helpers.ts";

const WITHIN_MS = 20;

/** A work that settles when the test says so. */
function gate<T>() {
  let resolve: (value: T) => void = () => {};
  let reject: (error: Error) => void = () => {};
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Waits (bounded) until `condition` holds. */
async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

function background(max?: number) {
  const logger = recordingLogger();
  const handled = createBackground({
    withinMs: WITHIN_MS,
    ...(max === undefined ? {} : { max }),
    logger,
    channel: "chat",
    lateFailureMessage: "update failed after it was answered",
  });
  return { background: handled, logger };
}

describe("createBackground", () => {
  it("gives the value of a work that settles in time", async () => {
    const { background: handled } = background();
    expect(await handled.run(async () => 42)).toEqual({ kind: "done", value: 42 });
    expect(handled.size).toBe(0);
  });

  it("rejects with the failure of a work that fails in time, and logs nothing", async () => {
    const { background: handled, logger } = background();
    await expect(
      handled.run(async () => {
        throw new Error("store locked");
      }),
    ).rejects.toThrow("store locked");
    expect(logger.lines).toEqual([]);
  });

  it("says late at the deadline while the work goes on, tracked until it settles", async () => {
    const { background: handled } = background();
    const work = gate<void>();
    let finished = false;
    const outcome = await handled.run(async () => {
      await work.promise;
      finished = true;
    });
    expect(outcome).toEqual({ kind: "late" });
    expect(finished).toBe(false);
    expect(handled.size).toBe(1);
    work.resolve();
    await until(() => handled.size === 0);
    expect(finished).toBe(true);
  });

  it("does not start a work while max late works still run", async () => {
    const { background: handled } = background(1);
    const first = gate<void>();
    expect(await handled.run(() => first.promise)).toEqual({ kind: "late" });
    let started = false;
    expect(
      await handled.run(async () => {
        started = true;
      }),
    ).toEqual({ kind: "busy" });
    expect(started).toBe(false);
    first.resolve();
    await until(() => handled.size === 0);
    expect(await handled.run(async () => "again")).toEqual({ kind: "done", value: "again" });
  });

  it("logs a late work's failure once, never as an unhandled rejection", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const { background: handled, logger } = background();
      const work = gate<void>();
      expect(await handled.run(() => work.promise)).toEqual({ kind: "late" });
      work.reject(new Error("store locked"));
      await until(() => logger.lines.length > 0);
      expect(await handled.settled(1_000)).toBe(true);
      expect(logger.lines).toEqual([
        {
          level: "error",
          message: "update failed after it was answered",
          details: { channel: "chat", err: expect.stringContaining("store locked") },
        },
      ]);
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });

  it("settled(waitMs) is false while late works run past the wait, true once they settled", async () => {
    const { background: handled } = background();
    expect(await handled.settled(0)).toBe(true);
    const a = gate<void>();
    const b = gate<void>();
    await handled.run(() => a.promise);
    await handled.run(() => b.promise);
    expect(await handled.settled(WITHIN_MS)).toBe(false);
    const waiting = handled.settled();
    a.resolve();
    await until(() => handled.size === 1);
    b.resolve();
    expect(await waiting).toBe(true);
    expect(handled.size).toBe(0);
  });

  it("refuses a negative time", () => {
    expect(() => createBackground({ withinMs: -1, logger: recordingLogger(), channel: "chat" })).toThrow(
      /withinMs must be 0 or more/,
    );
  });

  it("with no bound (Infinity) waits for the work, however long, and is never late", async () => {
    const handled = createBackground({
      withinMs: Number.POSITIVE_INFINITY,
      logger: recordingLogger(),
      channel: "chat",
    });
    const slow = gate<string>();
    let outcome: unknown;
    const running = handled
      .run(() => slow.promise)
      .then((value) => {
        outcome = value;
      });
    await new Promise((resolve) => setTimeout(resolve, 50)); // a timer of Infinity would have fired by now
    expect(outcome).toBeUndefined();
    slow.resolve("done");
    await running;
    expect(outcome).toEqual({ kind: "done", value: "done" });
    expect(await handled.settled()).toBe(true);
  });
});
