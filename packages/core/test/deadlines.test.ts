import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Deadlines } from "../src/broker/deadlines.ts";
import { createFakeClock } from "../src/testing/fake-clock.ts";

describe("Deadlines", () => {
  it("drops a question's entry the moment it is removed, and never fires it", async () => {
    const clock = createFakeClock(0);
    const fired: string[] = [];
    const deadlines = new Deadlines(clock, (id) => fired.push(id));
    for (let i = 0; i < 1000; i++) deadlines.add(`q${i}`, 1_000 + i);
    for (let i = 0; i < 1000; i += 2) deadlines.remove(`q${i}`);
    expect(deadlines.size).toBe(500);
    deadlines.add("q1", 5_000); // moved, not duplicated
    expect(deadlines.size).toBe(500);
    await clock.advance(10_000);
    expect(fired).toHaveLength(500);
    expect(fired.at(-1)).toBe("q1");
    expect(deadlines.size).toBe(0);
  });

  it("fires exactly the remaining deadlines, in order, for any mix of adds, moves and removals", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            id: fc.integer({ min: 0, max: 20 }),
            at: fc.integer({ min: 1, max: 500 }),
            drop: fc.boolean(),
          }),
          { maxLength: 60 },
        ),
        async (steps) => {
          const clock = createFakeClock(0);
          const fired: Array<[string, number]> = [];
          const deadlines = new Deadlines(clock, (id) => fired.push([id, clock.now()]));
          const expected = new Map<string, number>();
          for (const step of steps) {
            const id = `q${step.id}`;
            if (step.drop) {
              deadlines.remove(id);
              expected.delete(id);
            } else {
              deadlines.add(id, step.at);
              expected.set(id, step.at);
            }
          }
          for (let t = 0; t < 500; t += 25) await clock.advance(25);
          expect(new Set(fired.map(([id]) => id))).toEqual(new Set(expected.keys()));
          expect(fired).toHaveLength(expected.size);
          for (const [id, at] of fired) expect(at).toBeGreaterThanOrEqual(expected.get(id) ?? 0);
          deadlines.stop();
        },
      ),
      { numRuns: 100 },
    );
  });
});
