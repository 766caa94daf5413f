import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeAction, encodeAction, MAX_ACTION_BYTES, newActionToken } from "../src/prompt/codec.ts";

describe("action codec", () => {
  it("round-trips every action within 64 bytes", () => {
    const token = newActionToken();
    for (const action of [
      { kind: "option", index: 0 },
      { kind: "option", index: 3 },
      { kind: "other" },
      { kind: "skip" },
    ] as const) {
      const data = encodeAction(token, action);
      expect(new TextEncoder().encode(data).length).toBeLessThanOrEqual(MAX_ACTION_BYTES);
      expect(decodeAction(data)).toEqual({ token, action });
    }
  });

  it("makes tokens of at least 64 random bits that differ", () => {
    const tokens = new Set(Array.from({ length: 10_000 }, () => newActionToken()));
    expect(tokens.size).toBe(10_000);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{16}$/); // 96 bits
  });

  it.each([
    [""],
    ["au1"],
    ["au1.short.1"],
    ["au2.AAAAAAAAAAAAAAAA.1"],
    ["au1.AAAAAAAAAAAAAAAA.x"],
    ["au1.AAAAAAAAAAAAAAAA.12"],
    ["au1.AAAAAAAAAAAAAAA!.1"],
    [" au1.AAAAAAAAAAAAAAAA.1"],
    ["deploy:staging"],
    [null],
    [42],
    [{}],
    ["au1.AAAAAAAAAAAAAAAA.1".repeat(10)],
  ])("decodes garbage %j to undefined", (data) => {
    expect(decodeAction(data)).toBeUndefined();
  });

  it("never throws on arbitrary data", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.anything()), (data) => {
        const decoded = decodeAction(data);
        if (decoded !== undefined) expect(encodeAction(decoded.token, decoded.action)).toBe(data);
      }),
      { numRuns: 3000 },
    );
  });

  it("refuses to encode a bad token or index", () => {
    expect(() => encodeAction("bad", { kind: "skip" })).toThrow(TypeError);
    expect(() => encodeAction(newActionToken(), { kind: "option", index: 10 })).toThrow(TypeError);
  });
});
