import { describe, expect, it } from "vitest";
import { mentionOf, nameOf, renderNotice, renderSummaryNotice } from "../src/index.ts";

const ALICE = "200000000000000001";
const chars = (text: string) => [...text].length;

describe("how Discord names people", () => {
  it("names a user by mention, never by the bare id", () => {
    expect(mentionOf(ALICE)).toBe(`<@${ALICE}>`);
    expect(mentionOf("alice")).toBeUndefined();
    expect(nameOf({ id: ALICE, username: "alice" })).toBe(`<@${ALICE}>`);
    expect(nameOf({ id: "42", username: "ada" })).toBe("@ada");
  });
});

describe("renderNotice", () => {
  it.each([
    [
      "a refusal naming the creator",
      `This question is for <@${ALICE}>.`,
      `This question is for <@${ALICE}>.`,
    ],
    [
      "a refusal naming who answered",
      `This question was already answered by <@${ALICE}>.`,
      `This question was already answered by <@${ALICE}>.`,
    ],
    ["a German refusal", `Diese Frage ist für <@${ALICE}>.`, `Diese Frage ist für <@${ALICE}>.`],
    [
      "a German refusal naming who answered",
      `Diese Frage wurde bereits von <@${ALICE}> beantwortet.`,
      `Diese Frage wurde bereits von <@${ALICE}> beantwortet.`,
    ],
    ["a refusal naming someone by text", "This question is for @ali*ce.", "This question is for @ali\\*ce."],
    ["a mention in an echoed answer", `Recorded: <@${ALICE}>`, `Recorded: \\<@${ALICE}\\>`],
    [
      "an expiry refusal in the reader's time zone",
      "This question expired at <t:1735740300:t>.",
      "This question expired at <t:1735740300:t>.",
    ],
    [
      "a German expiry refusal on another day",
      "Diese Frage ist um <t:1735740300:f> abgelaufen.",
      "Diese Frage ist um <t:1735740300:f> abgelaufen.",
    ],
    ["a timestamp typed into an answer", "Recorded: <t:1735740300:t>", "Recorded: \\<t:1735740300:t\\>"],
    [
      "a refusal with more than a name",
      `This question is for <@${ALICE}> and *me*.`,
      `This question is for \\<@${ALICE}\\> and \\*me\\*.`,
    ],
  ])("%s", (_, text, content) => {
    expect(renderNotice(text)).toBe(content);
  });
});

describe("renderSummaryNotice", () => {
  const alice = { channel: "discord", userId: ALICE, displayName: `<@${ALICE}>` };

  it("keeps the attribution a mention and escapes the answer", () => {
    expect(renderSummaryNotice(`✅ Deploy: **x** <@1234567890123456> — <@${ALICE}>`, alice, "discord")).toBe(
      `✅ Deploy: \\*\\*x\\*\\* \\<@1234567890123456\\> — <@${ALICE}>`,
    );
    expect(renderSummaryNotice(`⏭ Deploy — skipped by <@${ALICE}>`, alice, "discord")).toBe(
      `⏭ Deploy — skipped by <@${ALICE}>`,
    );
    expect(renderSummaryNotice(`⏭ Deploy — übersprungen von <@${ALICE}>`, alice, "discord")).toBe(
      `⏭ Deploy — übersprungen von <@${ALICE}>`,
    );
    expect(renderSummaryNotice("⌛ Deploy_1 — expired", undefined, "discord")).toBe(
      "⌛ Deploy\\_1 — expired",
    );
  });

  it("does not turn another surface's name into a mention", () => {
    const web = { channel: "web", userId: "op", displayName: `<@${ALICE}>` };
    expect(renderSummaryNotice(`✅ Deploy: x — <@${ALICE}> via the web panel`, web, "discord")).toBe(
      `✅ Deploy: x — \\<@${ALICE}\\> via the web panel`,
    );
  });

  it("keeps an operator's attribution (name and surface) whole when a long answer is shortened", () => {
    const api = { channel: "http", userId: "op", displayName: "ops*team" };
    const content = renderSummaryNotice(
      `✅ Deploy: ${"x".repeat(3000)} — ops*team via HTTP API`,
      api,
      "discord",
    );
    expect(chars(content)).toBe(2000);
    expect(content.endsWith("… — ops\\*team via HTTP API")).toBe(true);
  });

  it("shortens a long answer to fit 2000 characters, never the attribution", () => {
    const summary = `✅ Deploy: ${"<b>".repeat(1000)} — <@${ALICE}>`;
    const content = renderSummaryNotice(summary, alice, "discord");
    expect(chars(content)).toBe(2000);
    expect(content.endsWith(`… — <@${ALICE}>`)).toBe(true);
    expect(content.startsWith("✅ Deploy: \\<b\\>")).toBe(true);
  });
});
