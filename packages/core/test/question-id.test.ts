import { describe, expect, it } from "vitest";
import { createAskUser, createMemoryStore } from "../src/index.ts";
import { deployInput } from "./helpers.ts";

describe("question ids", () => {
  it("are 20 URL-safe characters, distinct, and never start with '-' (a command line would read options)", async () => {
    const broker = createAskUser({ store: createMemoryStore(), channels: [] });
    const ids: string[] = [];
    // One random id in 64 would start with "-": 2,000 of them all but surely include one.
    for (let i = 0; i < 2_000; i++) ids.push((await broker.create(deployInput)).id);
    await broker.close();
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{19}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids.map((id) => id[0])).size).toBeGreaterThan(40); // the first character is still random
  });
});
