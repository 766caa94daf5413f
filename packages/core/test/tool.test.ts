import { describe, expect, it } from "vitest";
import { askUserTool, askUserToolFor } from "../src/schema/tool.ts";

describe("the model-facing tool", () => {
  it("is named ask_user and carries the model guidance", () => {
    expect(askUserTool.name).toBe("ask_user");
    const d = askUserTool.description;
    for (const phrase of [
      "genuinely belongs to the user",
      "Prefer exactly one question",
      "(Recommended)",
      "Never add an 'Other' option",
      "multiSelect: true",
      "After `no_answer`, continue with your best judgment",
      "permission to proceed",
      "credentials",
    ]) {
      expect(d).toContain(phrase);
    }
  });

  it("has a strict JSON Schema generated from the zod schema", () => {
    // biome-ignore lint/suspicious/noExplicitAny: walking a JSON Schema document in a test
    const schema = askUserTool.inputSchema as Record<string, any>;
    expect(schema.type).toBe("object");
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(["questions"]);
    const questions = schema.properties.questions;
    expect([questions.minItems, questions.maxItems]).toEqual([1, 3]);
    const item = questions.items;
    expect(item.required).toEqual(["id", "header", "question", "options"]);
    expect(item.additionalProperties).toBe(false);
    expect(item.properties.id.pattern).toBe("^[a-z][a-z0-9_]*$");
    expect([item.properties.options.minItems, item.properties.options.maxItems]).toEqual([2, 4]);
    expect(schema.properties.timeoutSeconds).toMatchObject({ type: "integer" });
    expect(schema.properties.timeoutSeconds.minimum).toBeUndefined();
  });

  it("is offered to primary runs only", () => {
    expect(askUserToolFor({ primary: true })).toBe(askUserTool);
    expect(askUserToolFor({ primary: false })).toBeUndefined();
  });
});
