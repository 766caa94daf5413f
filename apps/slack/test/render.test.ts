import { decodeAction, normalizeAskUserInput, type QuestionRecord, renderPromptText } from "@ask-user/core";
import { sampleRecord } from "@ask-user/core/testing";
import { checkBlocks, checkView } from "@ask-user/testkit/slack";
import { describe, expect, it } from "vitest";
import {
  escapeMrkdwn,
  renderOtherModal,
  renderQuestion,
  renderSummary,
  renderText,
  slackDate,
} from "../src/index.ts";
import { CONTEXT_TEXT_MAX_CHARS, SECTION_TEXT_MAX_CHARS } from "../src/limits.ts";
import { escapeWithin, renderPrivateNotice } from "../src/render.ts";

const EXPIRES = Date.UTC(2026, 0, 2, 14, 5);

function recordOf(input: unknown): QuestionRecord {
  const prompt = normalizeAskUserInput(input);
  return {
    ...sampleRecord(),
    prompt,
    tokens: prompt.questions.map((_, i) => `tokentokentoken${i}`),
    expiresAt: EXPIRES,
  };
}

const DEPLOY = {
  questions: [
    {
      id: "env",
      header: "Deploy",
      question: "Where to?",
      options: [
        { label: "Staging (Recommended)", description: "Safe" },
        { label: "Production" },
        { label: "Canary", description: "5 % of traffic" },
      ],
    },
  ],
};

describe("render", () => {
  it("escapes only &, < and > for mrkdwn", () => {
    expect(escapeMrkdwn("a & b <!channel> <@U1> *bold*")).toBe(
      "a &amp; b &lt;!channel&gt; &lt;@U1&gt; *bold*",
    );
  });

  it("keeps user mentions in private notices only, and nothing else that pings", () => {
    expect(renderPrivateNotice("This question is for <@U0ALICE>.").text).toBe(
      "This question is for <@U0ALICE>.",
    );
    expect(renderPrivateNotice("<!channel> <!here> <#C1> & <@U0ALICE|x>").text).toBe(
      "&lt;!channel&gt; &lt;!here&gt; &lt;#C1&gt; &amp; &lt;@U0ALICE|x&gt;",
    );
  });

  it("shortens escaped text without cutting an entity or an emoji", () => {
    expect(escapeWithin("&&&&", 12)).toBe("&amp;&amp;…");
    expect(escapeWithin("👍🏽👍🏽👍🏽", 5)).toBe("👍🏽…");
    expect(escapeWithin("short", 5)).toBe("short");
  });

  it("renders a Slack date with a UTC fallback", () => {
    expect(slackDate(EXPIRES, "14:05 UTC")).toBe("<!date^1767362700^{date_short_pretty} {time}|14:05 UTC>");
  });

  it("renders one question as a section, a context with descriptions and deadline, and buttons", () => {
    const message = renderQuestion(recordOf(DEPLOY), "en");
    expect(message.text).toBe("Deploy: Where to?");
    expect(checkBlocks(message.blocks, "message")).toEqual([]);
    const [section, context, actions] = message.blocks ?? [];
    expect(section).toEqual({ type: "section", text: { type: "mrkdwn", text: "*Deploy*\nWhere to?" } });
    expect(context).toEqual({
      type: "context",
      elements: [
        { type: "mrkdwn", text: "*Staging (Recommended)* — Safe\n*Canary* — 5 % of traffic" },
        {
          type: "mrkdwn",
          text: "Expires at <!date^1767362700^{date_short_pretty} {time}|2026-01-02 14:05 UTC>.",
        },
      ],
    });
    const buttons = (
      actions as {
        elements: Array<{ text: { text: string }; action_id: string; value: string; style?: string }>;
      }
    ).elements;
    expect(buttons.map((b) => b.text.text)).toEqual([
      "Staging (Recommended)",
      "Production",
      "Canary",
      "Other…",
      "Skip",
    ]);
    expect(buttons.map((b) => b.style)).toEqual(["primary", undefined, undefined, undefined, undefined]);
    expect(buttons.map((b) => decodeAction(b.action_id)?.action)).toEqual([
      { kind: "option", index: 0 },
      { kind: "option", index: 1 },
      { kind: "option", index: 2 },
      { kind: "other" },
      { kind: "skip" },
    ]);
    expect(buttons.every((b) => b.value === b.action_id)).toBe(true);
    expect(new Set(buttons.map((b) => b.action_id)).size).toBe(5);
  });

  it("uses the catalogue in German", () => {
    const message = renderQuestion(recordOf(DEPLOY), "de");
    expect(JSON.stringify(message.blocks)).toContain("Sonstiges…");
    expect(JSON.stringify(message.blocks)).toContain("Überspringen");
    expect(JSON.stringify(message.blocks)).toContain("Läuft ab um <!date^");
  });

  it("shortens long descriptions (not the question) to fit Slack's limits", () => {
    const long = {
      questions: [
        {
          id: "q",
          header: "&&&&&&&&&&&&",
          question: "&".repeat(1000),
          options: [0, 1, 2, 3].map((i) => ({
            label: `${"<".repeat(60)}${i}`,
            description: "&".repeat(500),
          })),
        },
      ],
    };
    const message = renderQuestion(recordOf(long), "en");
    expect(checkBlocks(message.blocks, "message")).toEqual([]);
    const [first] = (message.blocks ?? []) as Array<{ text: { text: string } }>;
    const sectionText = first?.text.text ?? "";
    expect(sectionText.length).toBeLessThanOrEqual(SECTION_TEXT_MAX_CHARS);
    expect(sectionText).toMatch(/^\*(&amp;){12}\*\n(&amp;)+…$/);
    const context = message.blocks?.[1] as { elements: Array<{ text: string }> };
    expect(context.elements[0]?.text.length).toBeLessThanOrEqual(CONTEXT_TEXT_MAX_CHARS);
    expect(context.elements[0]?.text).toMatch(/&amp;…/);
  });

  it("renders core's text escaped, with the deadline in the reader's time", () => {
    const record = recordOf({
      questions: [
        {
          id: "a",
          header: "A",
          question: "<!here> one?",
          options: [{ label: "x" }, { label: "y" }],
          multiSelect: true,
        },
      ],
    });
    const text = renderPromptText(record.prompt, { locale: "en", expiresAt: EXPIRES, now: EXPIRES });
    const message = renderText(text, record, "en");
    expect(message.blocks).toBeUndefined();
    expect(message.text).toContain("A: &lt;!here&gt; one?");
    expect(message.text.split("\n").at(-1)).toBe(
      "Expires at <!date^1767362700^{date_short_pretty} {time}|2026-01-02 14:05 UTC>.",
    );
    const otherDay = renderPromptText(record.prompt, { locale: "en", expiresAt: EXPIRES, now: 0 });
    expect(renderText(otherDay, record, "en").text.split("\n").at(-1)).toMatch(/^Expires at <!date\^/);
  });

  it("renders the summary as a section replacing all blocks", () => {
    expect(renderSummary("✅ Deploy: <!channel> — @alice")).toEqual({
      text: "✅ Deploy: &lt;!channel&gt; — @alice",
      blocks: [{ type: "section", text: { type: "mrkdwn", text: "✅ Deploy: &lt;!channel&gt; — @alice" } }],
    });
  });

  it("shortens a summary that escaping makes too long in its answer, never in its attribution", () => {
    const summary = renderSummary(`✅ Deploy: ${"a&b — ".repeat(500)} — @alice`);
    expect(summary.text.length).toBeLessThanOrEqual(SECTION_TEXT_MAX_CHARS);
    expect(summary.text).toMatch(/^✅ Deploy: a&amp;b — a&amp;b.*… — @alice$/);
    expect(checkBlocks(summary.blocks, "message")).toEqual([]);
    expect(renderSummary(`⌛ ${"<".repeat(900)}`).text).toMatch(/^⌛ (&lt;)+…$/);
  });

  it("keeps the attribution a mention only when it is the given one; every other mention is escaped", () => {
    expect(renderSummary("✅ Deploy: <@U0BOB> — <@U0ALICE>", "<@U0ALICE>").text).toBe(
      "✅ Deploy: &lt;@U0BOB&gt; — <@U0ALICE>",
    );
    expect(renderSummary("✅ Deploy: <@U0BOB> — <@U0ALICE>").text).toBe(
      "✅ Deploy: &lt;@U0BOB&gt; — &lt;@U0ALICE&gt;",
    );
    expect(renderSummary("✅ Deploy: x — <@U0BOB>", "<@U0ALICE>").text).toBe("✅ Deploy: x — &lt;@U0BOB&gt;");
    expect(renderSummary("⏭ <Deploy> — skipped by <@U0ALICE>", "<@U0ALICE>").text).toBe(
      "⏭ &lt;Deploy&gt; — skipped by <@U0ALICE>",
    );
    const long = renderSummary(`✅ Deploy: ${"<&>".repeat(300)} — <@U0ALICE>`, "<@U0ALICE>");
    expect(long.text.length).toBeLessThanOrEqual(SECTION_TEXT_MAX_CHARS);
    expect(long.text).toMatch(/^✅ Deploy: (&lt;&amp;&gt;)+.*… — <@U0ALICE>$/);
  });

  it("renders the Other… modal within Slack's view limits", () => {
    const view = renderOtherModal(recordOf(DEPLOY), 0, "C0GENERAL:1.2", "de");
    expect(checkView(view)).toEqual([]);
    expect(view.title.text).toBe("Sonstiges…");
    expect(decodeAction(view.callback_id)?.action).toEqual({ kind: "other" });
    expect(JSON.parse(view.private_metadata ?? "")).toEqual({ c: "C0GENERAL:1.2" });
  });
});
