import { describe, expect, it } from "vitest";
import { newQuestionId } from "../src/broker/create.ts";
import { createAskUser, createMemoryStore } from "../src/index.ts";
import { createFakeClock } from "../src/testing/index.ts";
import { deployInput } from "./helpers.ts";

const ID = /^[0-9A-Za-z][A-Za-z0-9_-]{19}$/;

describe("question ids", () => {
  it("are 20 URL-safe characters, distinct, and never start with '-' (a command line would read options)", async () => {
    const broker = createAskUser({ store: createMemoryStore(), channels: [] });
    const ids: string[] = [];
    for (let i = 0; i < 2_000; i++) ids.push((await broker.create(deployInput)).id);
    await broker.close();
    for (const id of ids) expect(id).toMatch(ID);
    expect(new Set(ids).size).toBe(ids.length);
    // After the 7 characters of time, 78 random bits: the 8th character takes most of its 64 values.
    expect(new Set(ids.map((id) => id[7])).size).toBeGreaterThan(40);
  });

  it("sort by creation time (so a store's index on them grows at its end)", async () => {
    const clock = createFakeClock(Date.UTC(2026, 11, 5));
    const broker = createAskUser({ store: createMemoryStore(), channels: [], clock });
    const ids: string[] = [];
    for (const step of [1, 1, 999, 1, 61_000, 2]) {
      ids.push((await broker.create(deployInput)).id);
      await clock.advance(step);
    }
    await broker.close();
    expect([...ids].sort()).toEqual(ids);
  });

  it("keep their format at any time: the epoch, today, far ahead (the prefix wraps after 2081)", () => {
    for (const now of [0, 1, 61, 62, Date.UTC(2026, 11, 5), Date.UTC(2081, 0, 1), Date.UTC(2200, 0, 1), -5])
      expect(newQuestionId(now)).toMatch(ID);
    expect(newQuestionId(0).slice(0, 7)).toBe("0000000");
    expect(newQuestionId(62).slice(0, 7)).toBe("0000010");
    // Within one millisecond, the random part orders them: still distinct.
    const same = Array.from({ length: 1_000 }, () => newQuestionId(Date.UTC(2026, 11, 5)));
    expect(new Set(same).size).toBe(same.length);
    expect(new Set(same.map((id) => id.slice(0, 7))).size).toBe(1);
  });
});
