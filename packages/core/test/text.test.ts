import { describe, expect, it } from "vitest";
import { clipText } from "../src/prompt/text.ts";

/** A high surrogate without its low one, or a low one without its high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const codePoints = (text: string) => [...text].length;

describe("clipText", () => {
  it("counts UTF-16 code units by default: an emoji counts 2", () => {
    expect(clipText("Deploy to production now", 10)).toBe("Deploy to…");
    expect(clipText("short", 10)).toBe("short");
    expect(clipText("a👍b👍c👍d", 5)).toBe("a👍b…");
    expect(clipText("👍👍👍", 6)).toBe("👍👍👍");
    expect(clipText("👍👍👍", 5)).toBe("👍👍…");
  });

  it("counts code points when told: each emoji is 1, and a surrogate pair is never split", () => {
    expect(clipText("a👍b👍c👍d", 5, "codePoint")).toBe("a👍b👍…");
    expect(clipText("👍👍👍👍", 4, "codePoint")).toBe("👍👍👍👍");
    expect(clipText("👍👍👍👍", 3, "codePoint")).toBe("👍👍…");
    const text = "🎉 Ship 🚀 to 🌍 now 👍 ok";
    for (let max = 1; max <= codePoints(text); max++) {
      const clipped = clipText(text, max, "codePoint");
      expect(codePoints(clipped), `max ${max}`).toBeLessThanOrEqual(max);
      expect(clipped, `max ${max}`).not.toMatch(LONE_SURROGATE);
    }
  });

  it("keeps a grapheme cluster whole when counting code points (👍🏽 is 2)", () => {
    expect(clipText("👍🏽👍🏽👍🏽", 5, "codePoint")).toBe("👍🏽👍🏽…");
    expect(clipText("👍🏽👍🏽👍🏽", 4, "codePoint")).toBe("👍🏽…");
    expect(clipText("abc", 0, "codePoint")).toBe("");
  });
});
