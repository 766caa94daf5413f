/** The form renderer, times and private notices as pure functions, checked with the fake's Block Kit validator. */
import { normalizeAskUserInput } from "@ask-user/core";
import { decodeAction, type QuestionRecord } from "@ask-user/core/channel";
import { sampleRecord } from "@ask-user/core/testing";
import { checkBlocks } from "@ask-user/testkit/slack";
import { describe, expect, it } from "vitest";
import { renderPrompt, slackTime, slackView } from "../src/index.ts";
import { renderPrivateNotice } from "../src/render/mrkdwn.ts";
import { promptMessage } from "../src/render/prompt.ts";
import { RELEASE } from "./form-fixtures.ts";

const EXPIRES = Date.UTC(2026, 0, 2, 14, 5);

function recordOf(input: unknown, draft?: QuestionRecord["draft"]): QuestionRecord {
  const prompt = normalizeAskUserInput(input);
  return {
    ...sampleRecord(),
    version: 7,
    prompt,
    tokens: prompt.questions.map((_, i) => `tokentokentoken${i}`),
    expiresAt: EXPIRES,
    ...(draft ? { draft } : {}),
  };
}

/** The form message of `record` (the first question's token on Send and Skip, every question shown). */
function renderForm(record: QuestionRecord, forName?: string) {
  const view = slackView(record, { buttons: false, ...(forName === undefined ? {} : { forName }) });
  return view.layout === "form" ? renderPrompt(view, record.version) : undefined;
}

type Group = {
  type: string;
  action_id: string;
  options: Array<{ text: { text: string }; value: string; description?: { text: string } }>;
  initial_option?: unknown;
  initial_options?: unknown[];
};

function groups(blocks: unknown[]): Group[] {
  return blocks.flatMap((b) => {
    const block = b as { type: string; elements?: unknown[] };
    return block.type === "actions"
      ? ((block.elements ?? []) as Group[]).filter((e) => e.type !== "button")
      : [];
  });
}

describe("renderForm", () => {
  it("gives each question radio buttons or checkboxes whose action is its `choose` and whose values are indices", () => {
    const record = recordOf(RELEASE);
    const form = renderForm(record);
    expect(form?.text).toContain(
      "1) Env: Where should the release go?\n   1. Staging (Recommended) — Safe: reversible",
    );
    expect(checkBlocks(form?.blocks, "message")).toEqual([]);
    const [env, regions, window] = groups(form?.blocks ?? []);
    expect([env?.type, regions?.type, window?.type]).toEqual([
      "radio_buttons",
      "checkboxes",
      "radio_buttons",
    ]);
    expect(env?.options.map((o) => [o.text.text, o.value, o.description?.text])).toEqual([
      ["Staging (Recommended)", "0", "Safe: reversible"],
      ["Production", "1", "Customers get it at once"],
    ]);
    expect(groups(form?.blocks ?? []).map((g) => decodeAction(g.action_id))).toEqual(
      record.tokens.map((token) => ({ token, action: { kind: "choose" } })),
    );
    expect(env?.initial_option).toBeUndefined();
    const buttons = (form?.blocks ?? [])
      .flatMap(
        (b) => ((b as { elements?: unknown[] }).elements ?? []) as Array<{ type: string; action_id: string }>,
      )
      .filter((e) => e.type === "button")
      .map((e) => decodeAction(e.action_id)?.action.kind);
    expect(buttons).toEqual(["other", "other", "other", "submit", "skip"]);
    expect(form?.blocks?.length).toBeLessThanOrEqual(12);
  });

  it("selects what the draft holds, with the very option objects, in blocks new for this version", () => {
    const record = recordOf(RELEASE, { env: ["Production"], regions: ["EU", "APAC", "Mars"] });
    const form = renderForm(record);
    expect(checkBlocks(form?.blocks, "message")).toEqual([]); // Slack refuses an initial option that matches none
    const [env, regions, window] = groups(form?.blocks ?? []);
    expect(env?.initial_option).toBe(env?.options[1]);
    expect(regions?.initial_options).toEqual([regions?.options[0], regions?.options[2]]);
    expect(window).not.toHaveProperty("initial_option");
    expect(JSON.stringify(form?.blocks)).toContain("_Your answer:_ Mars");
    const ids = (form?.blocks ?? []).map((b) => (b as { block_id?: string }).block_id).filter(Boolean);
    expect(ids).toEqual([
      "ask_user.tokentokentoken0.7",
      "ask_user.tokentokentoken1.7",
      "ask_user.tokentokentoken2.7",
      "ask_user.tokentokentoken0.send",
    ]);
  });

  it("says how to reply by text, and when it expires in the reader's time", () => {
    const form = renderForm({ ...recordOf(RELEASE), locale: "de" });
    const footer = JSON.stringify(form?.blocks?.at(-2));
    expect(footer).toContain("Antworte mit einer Zeile pro Frage, z. B. 1: 1; 2: 1; 3: 1");
    expect(footer).toContain(
      "Läuft ab um <!date^1767362700^{date_short_pretty} {time}|02.01.2026 14:05 UTC>.",
    );
    expect(JSON.stringify(form?.blocks?.at(-1))).toContain('"text":"Senden"');
  });

  it("is no form when a question has more options than a group holds", () => {
    const record = recordOf(RELEASE);
    const [first, second] = record.prompt.questions;
    if (!first || !second) throw new Error("no questions");
    const many = Array.from({ length: 11 }, (_, i) => ({ label: `O${i}` }));
    const big = { ...record, prompt: { ...record.prompt, questions: [first, { ...second, options: many }] } };
    const asText = promptMessage(big, { buttons: false });
    expect(asText.layout).toBe("text");
    expect(asText.blocks).toBeUndefined();
    expect(asText.text).toContain("   11. O10");
    const ten = {
      ...record,
      prompt: { ...record.prompt, questions: [first, { ...second, options: many.slice(1) }] },
    };
    expect(checkBlocks(renderForm(ten)?.blocks, "message")).toEqual([]);
  });

  it('keeps only its own "For <@U…>" a mention; a name that is no mention is escaped', () => {
    const record = recordOf(RELEASE);
    const mention = renderForm(record, "<@U0ALICE>");
    expect(JSON.stringify(mention?.blocks?.[0])).toContain('"text":"For <@U0ALICE>"');
    const named = renderForm(record, "<b>@bob");
    expect(JSON.stringify(named?.blocks?.[0])).toContain('"text":"For &lt;b&gt;@bob"');
    expect(mention?.text.startsWith("For <@U0ALICE>\n\n1) Env")).toBe(true);
    expect(named?.text.startsWith("For &lt;b&gt;@bob\n\n1) Env")).toBe(true);
    // An agent's mention in the text stays text; so does "For <@U…>" when it is not the audience.
    const agent = recordOf({
      questions: [{ ...RELEASE.questions[0], question: "Ping <@U0BOB>?" }, RELEASE.questions[1]],
    });
    expect(renderForm(agent, "<@U0ALICE>")?.text).toContain("1) Env: Ping &lt;@U0BOB&gt;?");
    const spoofed = recordOf({
      questions: [{ ...RELEASE.questions[0], question: "For <@U0ALICE>" }, RELEASE.questions[1]],
    });
    expect(renderForm(spoofed)?.text).toContain("1) Env: For &lt;@U0ALICE&gt;");
  });
});

describe("the fake's Block Kit validator", () => {
  it("refuses what Slack refuses in a choice group, so the checks above can fail", () => {
    const option = (i: number, text = `O${i}`) => ({ text: { type: "plain_text", text }, value: String(i) });
    const group = (extra: Record<string, unknown>) => [
      { type: "actions", elements: [{ type: "checkboxes", action_id: "a", ...extra }] },
    ];
    const many = Array.from({ length: 11 }, (_, i) => option(i));
    expect(checkBlocks(group({ options: many }), "message")).toEqual([
      "must be less than 11 items [json-pointer:/blocks/0/elements/0/options]",
    ]);
    expect(checkBlocks(group({ options: [option(0, "x".repeat(76))] }), "message")).toHaveLength(1);
    expect(
      checkBlocks(group({ options: [option(0)], initial_options: [option(0, "other text")] }), "message"),
    ).toEqual(["must match one of the options [json-pointer:/blocks/0/elements/0/initial_options/0]"]);
    expect(checkBlocks(group({ options: [option(0)], initial_options: [] }), "message")).toHaveLength(1);
  });
});

describe("times", () => {
  it("shows a time in the reader's zone, with the date when it is not near now", () => {
    expect(slackTime(EXPIRES, "en", EXPIRES + 60_000)).toBe("<!date^1767362700^{time}|14:05 UTC>");
    expect(slackTime(EXPIRES, "en", EXPIRES + 3 * 86_400_000)).toBe(
      "<!date^1767362700^{date_short} {time}|2026-01-02 14:05 UTC>",
    );
  });

  it("keeps times as dates in private notices (a date notifies nobody) while <!channel> stays text", () => {
    const time = slackTime(EXPIRES, "en", EXPIRES);
    expect(renderPrivateNotice(`This question expired at ${time}.`).text).toBe(
      "This question expired at <!date^1767362700^{time}|14:05 UTC>.",
    );
    expect(renderPrivateNotice("<!date^1^{time}|x> <!channel>").text).toBe(
      "<!date^1^{time}|x> &lt;!channel&gt;",
    );
  });
});
