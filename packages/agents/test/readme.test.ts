import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const read = (path: string) => readFileSync(new URL(path, import.meta.url), "utf8");

describe("the README", () => {
  it.each(["ai", "openai-agents", "langchain", "claude-agent-sdk"])(
    "shows examples/%s.ts word for word, under 30 lines",
    (name) => {
      const example = read(`../examples/${name}.ts`).trimEnd();
      expect(read("../README.md")).toContain(["```ts", example, "```"].join("\n"));
      expect(example.split("\n").length).toBeLessThan(30);
    },
  );
});
