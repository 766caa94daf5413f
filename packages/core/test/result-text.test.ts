import { describe, expect, it } from "vitest";
import { askUserResultText } from "../src/schema/result-text.ts";

describe("askUserResultText", () => {
  it("reads answers in the order asked, lists with commas, and ambiguous values as JSON", () => {
    const result = {
      status: "answered" as const,
      answers: { answers: { regions: ["EU", "US"], env: ["Prod"], note: ["a, b"] } },
    };
    const asked = { questions: [{ id: "env" }, { id: "regions" }] };
    expect(askUserResultText(result, asked)).toBe('answered: env = Prod; regions = EU, US; note = ["a, b"]');
    expect(askUserResultText({ status: "answered", answers: { answers: { x: [] } } })).toBe(
      "answered: x = (nothing)",
    );
  });

  it("tells the model to go on without an answer, with the reason", () => {
    expect(askUserResultText({ status: "no_answer", reason: "expired" })).toBe(
      "no_answer (expired): continue with your best judgment",
    );
    expect(askUserResultText({ status: "no_answer", reason: "skipped" })).toContain("chose not to answer");
  });
});
