import { describe, expect, it } from "vitest";
import { renderPromptText, renderSummary } from "../src/prompt/render.ts";
import { normalizeAskUserInput } from "../src/schema/normalize.ts";
import { sampleRecord } from "../src/testing/records.ts";

const at1405 = Date.UTC(2026, 11, 2, 14, 5);
const single = normalizeAskUserInput({
  questions: [
    {
      id: "deploy_target",
      header: "Deploy",
      question: "Where should I deploy?",
      options: [{ label: "Staging (Recommended)", description: "Safe, reversible" }, { label: "Production" }],
    },
  ],
});
const several = normalizeAskUserInput({
  questions: [
    {
      id: "env",
      header: "Env",
      question: "Which environment?",
      options: [{ label: "Staging" }, { label: "Prod" }],
    },
    {
      id: "regions",
      header: "Regions",
      question: "Which regions?",
      options: [{ label: "EU" }, { label: "US" }, { label: "Asia" }],
      multiSelect: true,
    },
  ],
});

describe("renderPromptText", () => {
  it("shows header, question, numbered options with descriptions, how to reply and skip, and the deadline", () => {
    expect(renderPromptText(single, { locale: "en", expiresAt: at1405, now: at1405 - 900_000 })).toBe(
      [
        "Deploy: Where should I deploy?",
        "   1. Staging (Recommended) — Safe, reversible",
        "   2. Production",
        "",
        "Reply with the option's number or label, or with your own answer.",
        'Anything else you write is taken as your own answer ("other: …" forces that).',
        'Reply "skip" to skip.',
        "Expires at 14:05 UTC.",
      ].join("\n"),
    );
  });

  it("numbers several questions and explains one line per question and multi-select", () => {
    const text = renderPromptText(several, { locale: "en", expiresAt: at1405 });
    expect(text).toContain("1) Env: Which environment?\n   1. Staging\n   2. Prod");
    expect(text).toContain("2) Regions: Which regions?\n   1. EU\n   2. US\n   3. Asia");
    expect(text).toContain("Reply with one line per question, e.g. 1: 1; 2: 1");
    expect(text).toContain("separated by commas");
  });

  it("says to reply to the message where the platform passes the bot only replies", () => {
    const plain = renderPromptText(single, { locale: "en", expiresAt: at1405 });
    const reply = renderPromptText(single, { locale: "en", expiresAt: at1405, replyToMessage: true });
    expect(plain).not.toContain("Reply to this message to answer.");
    expect(reply).toContain('Reply "skip" to skip.\nReply to this message to answer.');
    const de = renderPromptText(single, { locale: "de", expiresAt: at1405, replyToMessage: true });
    expect(de).toContain("Antworte auf diese Nachricht, um zu antworten.");
  });

  it("speaks German and shows the date when the deadline is on another day", () => {
    const text = renderPromptText(single, { locale: "de-AT", expiresAt: at1405, now: at1405 - 86_400_000 });
    expect(text).toContain("Antworte „überspringen“, um zu überspringen.");
    expect(text).toContain("Läuft ab um 02.12.2026 14:05 UTC.");
  });
});

describe("renderSummary", () => {
  it.each([
    [
      sampleRecord({
        status: "answered",
        answers: { deploy_target: ["Staging (Recommended)"] },
        resolvedBy: { channel: "telegram", userId: "7", displayName: "@alice" },
      }),
      "✅ Deploy: Staging (Recommended) — @alice",
    ],
    [
      sampleRecord({ status: "skipped", resolvedBy: { channel: "web", userId: "operator" } }),
      "⏭ Deploy — skipped by an operator via the web panel",
    ],
    [sampleRecord({ status: "expired" }), "⌛ Deploy — expired"],
    [sampleRecord({ status: "cancelled" }), "✖ Deploy — cancelled"],
    [sampleRecord({ status: "skipped" }), "⏭ Deploy — skipped"],
    [sampleRecord({ status: "undeliverable" }), "⚠ Deploy — not delivered"],
    [sampleRecord(), ""],
  ])("renders %#", (record, expected) => {
    expect(renderSummary(record, { locale: "en" })).toBe(expected);
  });

  it("joins several answers and speaks German", () => {
    const record = sampleRecord({
      prompt: several,
      status: "answered",
      answers: { env: ["Staging"], regions: ["EU", "Asia", "Mars"] },
      resolvedBy: { channel: "slack", userId: "U1", displayName: "@bob" },
    });
    expect(renderSummary(record, { locale: "en" })).toBe("✅ Env: Staging · Regions: EU, Asia, Mars — @bob");
    expect(renderSummary(sampleRecord({ status: "expired" }), { locale: "de" })).toBe(
      "⌛ Deploy — abgelaufen",
    );
    const skipped = sampleRecord({
      prompt: several,
      status: "skipped",
      resolvedBy: { channel: "slack", userId: "U1", displayName: "@bob" },
    });
    expect(renderSummary(skipped, { locale: "en" })).toBe("⏭ Env · Regions — skipped by @bob");
    expect(renderSummary(skipped, { locale: "de" })).toBe("⏭ Env · Regions — übersprungen von @bob");
  });
});
