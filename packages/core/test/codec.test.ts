import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeAction, encodeAction, MAX_ACTION_BYTES, newActionToken } from "../src/prompt/codec.ts";

/** Any time: a token's prefix is the time it was made, given by the caller's clock. */
const NOW = Date.UTC(2026, 11, 5);

describe("action codec", () => {
  it("round-trips every action within 64 bytes", () => {
    const token = newActionToken(NOW);
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

  it("makes tokens of 72 random bits after a time prefix, which differ even when made at once", () => {
    const now = Date.UTC(2026, 11, 5);
    const tokens = Array.from({ length: 10_000 }, () => newActionToken(now));
    expect(new Set(tokens).size).toBe(10_000);
    for (const token of tokens) expect(token).toMatch(/^[0-9A-Za-z]{4}[A-Za-z0-9_-]{12}$/);
    // Made in the same 16 ms step: one prefix; the 12 random characters take most of their 64 values.
    expect(new Set(tokens.map((token) => token.slice(0, 4))).size).toBe(1);
    for (let at = 4; at < 16; at++) expect(new Set(tokens.map((token) => token[at])).size).toBe(64);
  });

  it("makes tokens that sort by when they were made (16 ms steps), so a store's token index grows in one place", () => {
    const start = Date.UTC(2026, 11, 5);
    const made = [0, 16, 17, 1_000, 60_000, 3_600_000].map((offset) => newActionToken(start + offset * 16));
    expect([...made].sort()).toEqual(made);
    // The prefix wraps every 62^4 steps (≈ 2.7 days), still a valid token; the epoch and a negative clock too.
    expect(newActionToken(0).slice(0, 4)).toBe("0000");
    expect(newActionToken(62 ** 4 * 16).slice(0, 4)).toBe("0000");
    expect(newActionToken(16 * 62).slice(0, 4)).toBe("0010");
    expect(newActionToken(-5)).toMatch(/^0000[A-Za-z0-9_-]{12}$/);
    // Tokens of the old, fully random form still decode.
    expect(decodeAction("au1.-_AbcdEfGhIjKlMn.0")).toEqual({
      token: "-_AbcdEfGhIjKlMn",
      action: { kind: "option", index: 0 },
    });
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
    expect(() => encodeAction(newActionToken(NOW), { kind: "option", index: 10 })).toThrow(TypeError);
  });
});
