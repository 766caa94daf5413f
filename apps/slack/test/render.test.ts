import { normalizeAskUserInput } from "@ask-user/core";
import { decodeAction, type QuestionRecord } from "@ask-user/core/channel";
import { sampleRecord } from "@ask-user/core/testing";
import { checkBlocks, checkView } from "@ask-user/testkit/slack";
import { describe, expect, it } from "vitest";
import {
  escapeMrkdwn,
  renderOtherModal,
  renderPrompt,
  renderSummary,
  slackDate,
  slackView,
} from "../src/index.ts";
import { CONTEXT_TEXT_MAX_CHARS, SECTION_TEXT_MAX_CHARS } from "../src/limits.ts";
import { escapeWithin, renderPrivateNotice } from "../src/render/mrkdwn.ts";

const EXPIRES = Date.UTC(2026, 0, 2, 14, 5);

function recordOf(input: unknown, extra: Partial<QuestionRecord> = {}): QuestionRecord {
  const prompt = normalizeAskUserInput(input);
  return {
    ...sampleRecord(),
    prompt,
    tokens: prompt.questions.map((_, i) => `tokentokentoken${i}`),
    expiresAt: EXPIRES,
    ...extra,
  };
}

/** The prompt message as Slack gets it: buttons for a lone single-select question unless `buttons` is false. */
function renderQuestion(record: QuestionRecord, buttons = true, forName?: string) {
  const view = slackView(record, { buttons, ...(forName === undefined ? {} : { forName }) });
  return renderPrompt(view, record.version);
}

/** A record answered (or skipped) by `displayName` (user U0ALICE on Slack). */
function resolved(input: unknown, how: Partial<QuestionRecord>, displayName = "@alice", userId = "U0ALICE") {
  return recordOf(input, { resolvedBy: { channel: "slack", userId, displayName }, ...how });
}

const summaryOf = (record: QuestionRecord) => renderSummary(record, { channel: "slack", locale: "en" });

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
    const message = renderQuestion(recordOf(DEPLOY));
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
    const message = renderQuestion(recordOf(DEPLOY, { locale: "de" }));
    expect(JSON.stringify(message.blocks)).toContain("Sonstiges…");
    expect(JSON.stringify(message.blocks)).toContain("Überspringen");
    expect(JSON.stringify(message.blocks)).toContain("Läuft ab um <!date^");
  });

  it("shortens a question too long for a section by core's ladder, keeping every label and control", () => {
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
    const message = renderQuestion(recordOf(long));
    expect(checkBlocks(message.blocks, "message")).toEqual([]);
    const [first] = (message.blocks ?? []) as Array<{ text: { text: string } }>;
    const sectionText = first?.text.text ?? "";
    expect(sectionText.length).toBeLessThanOrEqual(SECTION_TEXT_MAX_CHARS);
    // Core's ladder: descriptions go before the question is cut (to 300 characters).
    expect(sectionText).toBe(`*${"&amp;".repeat(12)}*\n${"&amp;".repeat(299)}…`);
    const [, , actions] = (message.blocks ?? []) as Array<{ elements: Array<{ text: { text: string } }> }>;
    const buttons = actions?.elements ?? [];
    expect(buttons.map((b) => b.text.text)).toEqual([
      ...[0, 1, 2, 3].map((i) => `${"<".repeat(60)}${i}`),
      "Other…",
      "Skip",
    ]);
  });

  it("fits long descriptions into the context by core's ladder, with every option label", () => {
    const described = {
      questions: [
        {
          id: "q",
          header: "Deploy",
          question: "Where to?",
          options: [0, 1, 2, 3].map((i) => ({ label: `Option <${i}>`, description: "&".repeat(500) })),
        },
      ],
    };
    const message = renderQuestion(recordOf(described));
    expect(checkBlocks(message.blocks, "message")).toEqual([]);
    expect(message.blocks?.[0]).toEqual({
      type: "section",
      text: { type: "mrkdwn", text: "*Deploy*\nWhere to?" },
    });
    const context = message.blocks?.[1] as { elements: Array<{ text: string }> };
    const text = context.elements[0]?.text ?? "";
    expect(text.length).toBeLessThanOrEqual(CONTEXT_TEXT_MAX_CHARS);
    // Every description cut to the ladder's 80 characters (200 escaped would not fit), every label whole.
    expect(text.split("\n")).toEqual(
      [0, 1, 2, 3].map((i) => `*Option &lt;${i}&gt;* — ${"&amp;".repeat(79)}…`),
    );
    expect(context.elements[1]?.text).toMatch(/^Expires at <!date\^/);
  });

  it("renders core's text escaped, with the deadline in the reader's time", () => {
    const record = recordOf({
      questions: [
        { id: "a", header: "A", question: "<!here> one?", options: [{ label: "x" }, { label: "y" }] },
      ],
    });
    const message = renderQuestion(record, false);
    expect(message.blocks).toBeUndefined();
    expect(message.text).toContain("A: &lt;!here&gt; one?");
    expect(message.text.split("\n").at(-1)).toBe(
      "Expires at <!date^1767362700^{date_short_pretty} {time}|2026-01-02 14:05 UTC>.",
    );
  });

  it("renders the summary as a section replacing all blocks", () => {
    expect(summaryOf(resolved(DEPLOY, { status: "answered", answers: { env: ["<!channel>"] } }))).toEqual({
      text: "✅ Deploy: &lt;!channel&gt; — @alice",
      blocks: [{ type: "section", text: { type: "mrkdwn", text: "✅ Deploy: &lt;!channel&gt; — @alice" } }],
    });
  });

  it("shortens a summary that escaping makes too long in its answer, never in its attribution", () => {
    const summary = summaryOf(
      resolved(DEPLOY, { status: "answered", answers: { env: ["a&b — ".repeat(500)] } }),
    );
    expect(summary.text.length).toBeLessThanOrEqual(SECTION_TEXT_MAX_CHARS);
    expect(summary.text).toMatch(/^✅ Deploy: a&amp;b — a&amp;b.*… — @alice$/);
    expect(checkBlocks(summary.blocks, "message")).toEqual([]);
  });

  it("keeps every question and the attribution when escaping makes one long answer too long (SPEC §6)", () => {
    const release = {
      questions: ["Env", "Regions", "Window"].map((header) => ({
        id: header.toLowerCase(),
        header,
        question: `${header}?`,
        options: [{ label: "Production" }, { label: "Tonight" }],
      })),
    };
    const answers = { env: ["Production"], regions: ["<>".repeat(1475)], window: ["Tonight"] };
    const summary = summaryOf(resolved(release, { status: "answered", answers }));
    expect(summary.text.length).toBeLessThanOrEqual(SECTION_TEXT_MAX_CHARS);
    expect(summary.text).toMatch(/^✅ Env: Production · Regions: (&lt;&gt;)+.*… · Window: Tonight — @alice$/);
  });

  it("keeps the attribution a mention only when it is who resolved it; every other mention is escaped", () => {
    const answered = { status: "answered" as const, answers: { env: ["<@U0BOB>"] } };
    expect(summaryOf(resolved(DEPLOY, answered, "<@U0ALICE>")).text).toBe(
      "✅ Deploy: &lt;@U0BOB&gt; — <@U0ALICE>",
    );
    expect(summaryOf(resolved(DEPLOY, answered, "<@U0ALICE>", "U0BOB")).text).toBe(
      "✅ Deploy: &lt;@U0BOB&gt; — &lt;@U0ALICE&gt;",
    );
    expect(summaryOf(resolved(DEPLOY, { status: "skipped" }, "<@U0ALICE>")).text).toBe(
      "⏭ Deploy — skipped by <@U0ALICE>",
    );
    const long = { status: "answered" as const, answers: { env: ["<&>".repeat(300)] } };
    const text = summaryOf(resolved(DEPLOY, long, "<@U0ALICE>")).text;
    expect(text.length).toBeLessThanOrEqual(SECTION_TEXT_MAX_CHARS);
    expect(text).toMatch(/^✅ Deploy: (&lt;&amp;&gt;)+.*… — <@U0ALICE>$/);
  });

  it("renders the Other… modal within Slack's view limits", () => {
    const view = renderOtherModal(recordOf(DEPLOY), 0, "C0GENERAL:1.2", "de");
    expect(checkView(view)).toEqual([]);
    expect(view.title.text).toBe("Sonstiges…");
    expect(decodeAction(view.callback_id)?.action).toEqual({ kind: "other" });
    expect(JSON.parse(view.private_metadata ?? "")).toEqual({ c: "C0GENERAL:1.2" });
  });
});
