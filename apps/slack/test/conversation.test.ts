import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { channelPlugin, conversationProblem, formatConversation, parseConversation } from "../src/index.ts";

describe("conversation ids", () => {
  it("reads channels, users' DMs and threads in either", () => {
    expect(parseConversation("C0123ABCD")).toEqual({ base: "C0123ABCD", user: false });
    expect(parseConversation(" G0PRIVATE ")).toEqual({ base: "G0PRIVATE", user: false });
    expect(parseConversation("U0ALICE:1712345678.000100")).toEqual({
      base: "U0ALICE",
      user: true,
      threadTs: "1712345678.000100",
    });
    expect(parseConversation("W0ENTERPRISE")).toEqual({ base: "W0ENTERPRISE", user: true });
  });

  it("is undefined for anything else, and says why", () => {
    for (const bad of ["D0ALICE", "#general", "", "C0123ABCD:", "C0123ABCD:abc", "c0123abcd", "@alice"]) {
      expect(parseConversation(bad), bad).toBeUndefined();
    }
    expect(conversationProblem("D0ALICE")).toBe(
      `Target a direct message by the user's id (U…), not the DM channel id "D0ALICE".`,
    );
    expect(conversationProblem("#general")).toMatch(
      /^"#general" is not a Slack conversation: use a channel id/,
    );
  });

  it("never throws, and formats what it reads back to the same id", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const parsed = parseConversation(text);
        if (parsed) expect(formatConversation(parsed)).toBe(text.trim());
      }),
    );
    expect(formatConversation({ base: "C0123ABCD", threadTs: "1.2" })).toBe("C0123ABCD:1.2");
  });

  it("is what the plugin checks targets with", () => {
    expect(channelPlugin.parseConversation("C0123ABCD:1.2")).toEqual({
      base: "C0123ABCD",
      user: false,
      threadTs: "1.2",
    });
    expect(channelPlugin.parseConversation("D0ALICE")).toBeUndefined();
  });
});
