import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { QuestionRecord } from "../src/model/types.ts";
import { decodeAction } from "../src/prompt/codec.ts";
import { clipLongestFirst, fitView } from "../src/prompt/fit.ts";
import { renderPromptText, renderSummary } from "../src/prompt/render.ts";
import { buildPromptView, type PromptView, renderViewText } from "../src/prompt/view.ts";
import { normalizeAskUserInput } from "../src/schema/normalize.ts";
import type { AskUserInput } from "../src/schema/schema.ts";
import { rolloutInput, sampleRecord } from "../src/testing/records.ts";

const T = Date.UTC(2026, 11, 2, 14, 5);

function recordOf(input: AskUserInput, overrides: Partial<QuestionRecord> = {}): QuestionRecord {
  const prompt = normalizeAskUserInput(input);
  return sampleRecord({
    prompt,
    tokens: prompt.questions.map((_, i) => `tok${String(i).padStart(13, "0")}`),
    createdAt: T,
    expiresAt: T + 900_000,
    ...overrides,
  });
}

describe("buildPromptView", () => {
  it("gives a lone single-select question buttons that answer at once, then Other… and Skip", () => {
    const record = sampleRecord();
    const view = buildPromptView(record, { buttons: true, forName: "@alice" });
    expect(view.layout).toBe("buttons");
    expect(view.audience).toEqual({ name: "@alice", line: "For @alice" });
    const [question] = view.questions;
    expect(question?.options.map((o) => [o.label, o.recommended, decodeAction(o.action)?.action])).toEqual([
      ["Staging (Recommended)", true, { kind: "option", index: 0 }],
      ["Production", false, { kind: "option", index: 1 }],
    ]);
    expect(decodeAction(question?.other.action ?? "")?.action).toEqual({ kind: "other" });
    expect(decodeAction(view.controls.skip.action)?.action).toEqual({ kind: "skip" });
    expect(view.controls.send).toBeUndefined();
  });

  it("is text without buttons, and text for a form on a channel without forms", () => {
    expect(buildPromptView(sampleRecord()).layout).toBe("text");
    expect(buildPromptView(recordOf(rolloutInput), { buttons: true }).layout).toBe("text");
    expect(buildPromptView(recordOf(rolloutInput), { forms: { maxQuestions: 2 } }).layout).toBe("text");
    expect(buildPromptView(recordOf(rolloutInput), { forms: { maxOptions: 3 } }).layout).toBe("form");
  });

  it("is text, without payloads, for more options than a control can number or a record without tokens", () => {
    const many = sampleRecord();
    const question = many.prompt.questions[0];
    if (question) question.options = Array.from({ length: 11 }, (_, i) => ({ label: `Option ${i + 1}` }));
    const view = buildPromptView(many, { buttons: true, forms: {} });
    expect(view.layout).toBe("text");
    expect(view.questions[0]?.options.every((o) => o.action === "")).toBe(true);
    expect(buildPromptView(recordOf(rolloutInput, { tokens: [] }), { forms: {} }).controls.send?.action).toBe(
      "",
    );
  });

  it("shows a form's draft: picked options, the own answer, status lines, and the step's controls", () => {
    const record = recordOf(rolloutInput, {
      draft: { env: ["Production"], regions: ["EU (Recommended)", "Mars"] },
    });
    const view = buildPromptView(record, { forms: {}, shown: 1 });
    expect(view.layout).toBe("form");
    expect(view.step).toEqual({ index: 1, total: 3, line: "Question 2 of 3" });
    const regions = view.questions[1];
    expect(regions?.options.map((o) => o.picked)).toEqual([true, false, false]);
    expect(regions?.own).toBe("Mars");
    expect(regions?.other.picked).toBe(true);
    expect(decodeAction(regions?.options[2]?.action ?? "")?.action).toEqual({ kind: "pick", index: 2 });
    expect(decodeAction(regions?.choose ?? "")?.action).toEqual({ kind: "choose" });
    expect(view.status).toEqual([
      { number: 1, header: "Env", answered: true, values: "Production" },
      { number: 2, header: "Regions", answered: true, values: "EU (Recommended), Mars" },
      { number: 3, header: "Window", answered: false },
    ]);
    const back = decodeAction(view.controls.back?.action ?? "");
    const next = decodeAction(view.controls.next?.action ?? "");
    expect([back?.token, back?.action]).toEqual([record.tokens[0], { kind: "view" }]);
    expect([next?.token, next?.action]).toEqual([record.tokens[2], { kind: "view" }]);
    expect(decodeAction(view.controls.send?.action ?? "")?.action).toEqual({ kind: "submit" });
    // Without `shown`, the first question without an answer.
    expect(buildPromptView(record, { forms: {} }).step.index).toBe(2);
  });

  it("reads as core's readable text of the prompt", () => {
    const record = recordOf(rolloutInput);
    for (const replyToMessage of [false, true]) {
      const options = { locale: "en", expiresAt: record.expiresAt, now: T, forName: "@bob", replyToMessage };
      expect(renderViewText(buildPromptView(record, { forName: "@bob", replyToMessage }))).toBe(
        renderPromptText(record.prompt, options),
      );
    }
  });
});

describe("clipLongestFirst", () => {
  it("cuts the longest texts first and keeps short ones whole", () => {
    const out = clipLongestFirst(["Production", "word ".repeat(600), "Tonight"], 60);
    expect(out[0]).toBe("Production");
    expect(out[2]).toBe("Tonight");
    expect(out[1]?.endsWith("…")).toBe(true);
    expect(out.join("").length).toBeLessThanOrEqual(60);
  });

  it("keeps every text within the budget, whole when it can", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 300 }), { maxLength: 5 }), fc.nat(900), (texts, budget) => {
        const out = clipLongestFirst(texts, budget);
        expect(out).toHaveLength(texts.length);
        const total = texts.join("").length;
        if (total <= budget) expect(out).toEqual(texts);
        else if (budget >= texts.length) expect(out.join("").length).toBeLessThanOrEqual(budget);
        out.forEach((text, i) => {
          if (text.length < (texts[i] ?? "").length) expect(text.endsWith("…") || text === "").toBe(true);
        });
      }),
    );
  });
});

const word = fc.constantFrom("deploy", "EU", "staging", "🚀", "naïve", "tonight", "x".repeat(40), "a b");
const text = (max: number) =>
  fc.array(word, { minLength: 1, maxLength: max }).map((words) => words.join(" "));
const header = fc.constantFrom("Env", "Regions", "Window", "Deploy", "DB", "🚀 Launch");
const question = fc.record({
  header,
  question: text(200),
  multiSelect: fc.boolean(),
  options: fc.uniqueArray(
    fc.record({
      label: fc.constantFrom("Staging", "Production", "EU", "US", "Asia", "Tonight", "Weekend", "Canary"),
      description: fc.option(text(100), { nil: undefined }),
    }),
    { minLength: 2, maxLength: 4, selector: (o) => o.label },
  ),
});
const form = fc.uniqueArray(question, { minLength: 1, maxLength: 3, selector: (q) => q.header });

/** A plain rendering of the whole view: what a channel would measure. */
function plain(view: PromptView): string {
  const status = view.status.map((s) => `${s.header}: ${s.values ?? ""}`);
  return [
    view.audience?.line ?? "",
    renderViewText(view),
    ...status,
    ...view.questions.map((q) => q.own ?? ""),
  ].join("\n");
}

describe("fitView", () => {
  it("never drops a question, a header, an option label, the audience or a control, and fits when it can", () => {
    fc.assert(
      fc.property(form, fc.integer({ min: 200, max: 5000 }), text(400), (questions, limit, own) => {
        const input = {
          questions: questions.map((q, i) => ({ ...q, id: `q${i}`, header: `${q.header}${i}` })),
        };
        const prompt = normalizeAskUserInput(input);
        const draft = { [prompt.questions[0]?.id ?? ""]: [own] };
        const record = recordOf(input, { draft });
        const view = buildPromptView(record, { forms: {}, forName: "@alice" });
        const fitted = fitView(view, (v) => plain(v).length <= limit);
        expect(fitted.questions.map((q) => q.header)).toEqual(view.questions.map((q) => q.header));
        expect(fitted.questions.map((q) => q.options.map((o) => o.label))).toEqual(
          view.questions.map((q) => q.options.map((o) => o.label)),
        );
        expect(fitted.audience).toEqual(view.audience);
        expect(fitted.controls).toEqual(view.controls);
        expect(fitted.status.map((s) => s.header)).toEqual(view.status.map((s) => s.header));
        if (plain(view).length <= limit) expect(fitted).toEqual(view);
        // The floor (everything cut) of these inputs is under 1,000 characters: it always fits.
        if (limit >= 1000) expect(plain(fitted).length).toBeLessThanOrEqual(limit);
      }),
      { numRuns: 200 },
    );
  });

  it("shortens a long own answer before any description or question text", () => {
    const record = recordOf(rolloutInput, { draft: { regions: ["word ".repeat(600)] } });
    const view = buildPromptView(record, { forms: {} });
    const fitted = fitView(view, (v) => plain(v).length <= 1500);
    expect(fitted.questions.map((q) => q.question)).toEqual(view.questions.map((q) => q.question));
    expect(fitted.questions[0]?.options.map((o) => o.description)).toEqual(
      view.questions[0]?.options.map((o) => o.description),
    );
    expect(fitted.questions[1]?.own?.length).toBeLessThan(500);
  });
});

describe("renderSummary", () => {
  it("shortens a long answer, never the questions after it or the attribution (SPEC §6)", () => {
    const record = recordOf(rolloutInput, {
      status: "answered",
      answers: { env: ["Production"], regions: [`${"word ".repeat(590)}end`], window: ["Tonight"] },
      resolvedBy: { channel: "telegram", userId: "1", displayName: "@alice" },
    });
    const summary = renderSummary(record, { locale: "en" });
    expect(summary.startsWith("✅ Env: Production · Regions: word word")).toBe(true);
    expect(summary.endsWith("… · Window: Tonight — @alice")).toBe(true);
    expect(summary.length).toBeLessThanOrEqual(900);
  });

  it("fits what the channel says fits, longest answers first", () => {
    const record = recordOf(rolloutInput, {
      status: "answered",
      answers: { env: ["Production"], regions: ["EU", "x".repeat(400)], window: ["y".repeat(300)] },
      resolvedBy: { channel: "slack", userId: "U1", displayName: "<@U1>" },
    });
    const escaped = (s: string) => s.replace(/</g, "&lt;").replace(/>/g, "&gt;");
    const summary = renderSummary(record, { locale: "en", fits: (s) => escaped(s).length <= 300 });
    expect(escaped(summary).length).toBeLessThanOrEqual(300);
    expect(summary).toContain("Env: Production · Regions: EU, x");
    expect(summary).toContain("· Window: y");
    expect(summary.endsWith(" — <@U1>")).toBe(true);
  });
});
