import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

describe("the tool input example (README)", () => {
  it("prints the label rule, every problem of a bad call, the prompt, checked answers and a result check", async () => {
    const script = fileURLToPath(new URL("../examples/tool-input.ts", import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", script]);
    expect(stdout.split("\n")).toEqual([
      "label: The answer value returned to you: at most 64 characters, counted as user-perceived characters (grapheme clusters: an emoji or an accented letter is one). The first (recommended) option ends with ' (Recommended)'.",
      "The ask_user input has 4 problems; fix them all and call again:",
      '- questions[0].id: The id "Deploy" must be snake_case (a-z, 0-9, _; starting with a letter), at most 64 characters, e.g. "deploy_target".',
      "- questions[0].options: Give 2-4 options, not 1.",
      '- questions[0].options[0].label: Remove the "Other" option: a free-text "Other" answer is always added by the system.',
      "- timeoutSeconds: timeoutSeconds must be a whole number of seconds (30-3600), not a string.",
      '{"questions":[{"id":"deploy_target","header":"Deployment t","question":"Where should I deploy?","options":[{"label":"Staging (Recommended)"},{"label":"Production 🚀"}],"multiSelect":false}],"timeoutSeconds":30}',
      '{"ok":true,"answers":{"deploy_target":["Production 🚀"]}}',
      '{"ok":false,"issues":[{"path":"answers.deploy_target[0]","message":"\\"Prodution 🚀\\" is not an option of Deployment t: did you mean \\"Production 🚀\\"? To give it as your own answer, send \\"other: Prodution 🚀\\"."}]}',
      "true",
      "",
    ]);
  }, 30_000);
});
