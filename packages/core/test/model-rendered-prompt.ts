/**
 * Reads a prompt rendered by `renderPromptText` the way a person does: which number stands next to
 * each label, which number keys each question, what the example line and the skip and other hints say.
 * The reply-forms property test types what this finds, so it checks the forms the prompt really shows.
 */
import type { Prompt } from "../src/schema/schema.ts";

/** What the rendered text tells a person about how to reply. */
export interface ShownPrompt {
  /** Per question: the number shown before it (`2) Region: …`), `undefined` for a lone question. */
  keys: Array<string | undefined>;
  /** Per question, per option: the number shown before the label (`   2. Production — …`). */
  numbers: string[][];
  /** The example of a several-question reply, as shown (`1: 1; 2: 1`); `undefined` for one question. */
  example: string | undefined;
  /** What the example puts between two keyed answers (`; `). */
  exampleSeparator: string | undefined;
  /** The skip word in the skip hint (`skip`, `überspringen`). */
  skipWord: string;
  /** The prefix in the other hint that forces free text (`other:`, `sonstiges:`). */
  otherPrefix: string;
}

const QUOTED = /"([^"]+)"|„([^“]+)“|“([^”]+)”/gu;
const OPTION_LINE = /^\s+([0-9]+)\. (.*)$/u;
const QUESTION_HEAD = /^([0-9]+)\) /u;

function fail(message: string, text: string): never {
  throw new Error(`${message} in the rendered prompt:\n${text}`);
}

/** The option number shown for `label` among `lines` (the label, alone or followed by ` — description`). */
function numberOf(lines: readonly string[], label: string, text: string): string {
  for (const line of lines) {
    const match = OPTION_LINE.exec(line);
    if (match?.[2] === label || match?.[2]?.startsWith(`${label} — `)) return match[1] ?? "";
  }
  return fail(`no numbered line shows the label ${JSON.stringify(label)}`, text);
}

/** Reads `text`, the rendering of `prompt`; throws when it does not show what a person needs. */
export function readRenderedPrompt(prompt: Prompt, text: string): ShownPrompt {
  const lines = text.split("\n");
  const several = prompt.questions.length > 1;
  // Each question's block starts at its head line; the hints follow the last block.
  const heads = several
    ? prompt.questions.map((q, index) => {
        const at = lines.findIndex(
          (line) => QUESTION_HEAD.test(line) && line.includes(`${q.header}: ${q.question}`),
        );
        if (at < 0) fail(`question ${index + 1} is not shown`, text);
        return at;
      })
    : [0];
  const blockEnd = lines.findIndex((line, index) => index > (heads.at(-1) ?? 0) && line === "");
  const keys = several ? heads.map((at) => QUESTION_HEAD.exec(lines[at] ?? "")?.[1]) : [undefined];
  const numbers = prompt.questions.map((question, index) => {
    const block = lines.slice(heads[index], heads[index + 1] ?? blockEnd);
    return question.options.map((option) => numberOf(block, option.label, text));
  });
  const hints = lines.slice(blockEnd).join("\n");
  const quoted = [...hints.matchAll(QUOTED)].map((match) => match[1] ?? match[2] ?? match[3] ?? "");
  const other = quoted.find((segment) => segment.endsWith("…"));
  const skip = quoted.find((segment) => !segment.endsWith("…"));
  if (other === undefined || skip === undefined) fail("no quoted skip word and other prefix", text);
  let example: string | undefined;
  let exampleSeparator: string | undefined;
  if (several) {
    const line = lines.slice(blockEnd).find((candidate) => candidate.includes("1: 1"));
    if (line === undefined) fail("no example line (`1: 1 …`)", text);
    example = line.slice(line.indexOf("1: 1")).replace(/[.。]$/u, "");
    const second = example.indexOf("2: 1");
    if (second < 0) fail("the example does not show question 2", text);
    exampleSeparator = example.slice("1: 1".length, second);
  }
  return {
    keys,
    numbers,
    example,
    exampleSeparator,
    skipWord: skip,
    otherPrefix: other.replace(/\s*…$/u, ""),
  };
}
