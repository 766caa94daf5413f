import { describe, expect, it } from "vitest";
import type { Answers } from "../src/model/types.ts";
import { interpretReply, type ReplyInterpretation } from "../src/reply/interpret.ts";
import type { Prompt, PromptQuestion } from "../src/schema/schema.ts";

function question(id: string, header: string, labels: string[], multiSelect = false): PromptQuestion {
  return { id, header, question: `${header}?`, options: labels.map((label) => ({ label })), multiSelect };
}

function prompt(...questions: PromptQuestion[]): Prompt {
  return { questions, timeoutSeconds: 900 };
}

const deploy = prompt(question("target", "Target", ["Staging (Recommended)", "Production", "Local"]));
const skipLabel = prompt(question("step", "Step", ["Skip", "Run"]));
const numeric = prompt(question("replicas", "Replicas", ["10", "20", "3"]));
const tools = prompt(question("tools", "Tools", ["Lint, format", "Test", "Build", "Docs"], true));
const several = prompt(
  question("target", "Target", ["Staging (Recommended)", "Production"]),
  question("regions", "Regions", ["eu-west", "us-east"], true),
  question("time", "Time", ["Now", "Later"]),
);

function answered(answers: Answers, complete = true): ReplyInterpretation {
  return { kind: "answers", answers, complete };
}

function invalid(message: string): ReplyInterpretation {
  return { kind: "invalid", message };
}

const SKIP: ReplyInterpretation = { kind: "skip" };
const EMPTY = invalid("The reply is empty.");
const noOption = (given: string, max: number) =>
  invalid(
    `There is no option ${given}: choose a number from 1 to ${max}, a label, or write your own answer after "other:".`,
  );
const SKIP_ALONE = invalid('To skip, reply "skip" on its own.');

interface Case {
  name: string;
  prompt: Prompt;
  text: string;
  draft?: Answers;
  locale?: string;
  expected: ReplyInterpretation;
}

const cases: Case[] = [
  // One single-select question: labels.
  {
    name: "an exact label",
    prompt: deploy,
    text: "Production",
    expected: answered({ target: ["Production"] }),
  },
  {
    name: "a label in other case",
    prompt: deploy,
    text: "production",
    expected: answered({ target: ["Production"] }),
  },
  {
    name: "a label with spaces around",
    prompt: deploy,
    text: "  PRODUCTION \n",
    expected: answered({ target: ["Production"] }),
  },
  {
    name: "a label in straight quotes",
    prompt: deploy,
    text: '"Local"',
    expected: answered({ target: ["Local"] }),
  },
  {
    name: "a label in curly quotes",
    prompt: deploy,
    text: "“local”",
    expected: answered({ target: ["Local"] }),
  },
  {
    name: "a label in full-width letters (NFKC)",
    prompt: deploy,
    text: "ｌｏｃａｌ",
    expected: answered({ target: ["Local"] }),
  },
  {
    name: "a label without its (Recommended) suffix, which the answer keeps",
    prompt: deploy,
    text: "staging",
    expected: answered({ target: ["Staging (Recommended)"] }),
  },
  {
    name: "a label with (recommended) in other case",
    prompt: deploy,
    text: "STAGING (recommended)",
    expected: answered({ target: ["Staging (Recommended)"] }),
  },
  {
    name: "a label with runs of spaces",
    prompt: deploy,
    text: "Staging    (Recommended)",
    expected: answered({ target: ["Staging (Recommended)"] }),
  },
  // Numbers.
  {
    name: "option number 1",
    prompt: deploy,
    text: "1",
    expected: answered({ target: ["Staging (Recommended)"] }),
  },
  { name: "the last option number", prompt: deploy, text: "3", expected: answered({ target: ["Local"] }) },
  {
    name: "a number with spaces around",
    prompt: deploy,
    text: "  2 ",
    expected: answered({ target: ["Production"] }),
  },
  { name: "a keycap digit", prompt: deploy, text: "2️⃣", expected: answered({ target: ["Production"] }) },
  {
    name: "a keycap digit without variation selector",
    prompt: deploy,
    text: "3\u20E3",
    expected: answered({ target: ["Local"] }),
  },
  { name: "a full-width digit", prompt: deploy, text: "２", expected: answered({ target: ["Production"] }) },
  {
    name: "a number with a leading zero",
    prompt: deploy,
    text: "02",
    expected: answered({ target: ["Production"] }),
  },
  {
    name: "a quoted number",
    prompt: deploy,
    text: '"1"',
    expected: answered({ target: ["Staging (Recommended)"] }),
  },
  { name: "option 0, refused with the range", prompt: deploy, text: "0", expected: noOption("0", 3) },
  { name: "a number past the last option, refused", prompt: deploy, text: "7", expected: noOption("7", 3) },
  { name: "a keycap past the last option, refused", prompt: deploy, text: "9️⃣", expected: noOption("9", 3) },
  {
    name: "a huge number, refused and shortened",
    prompt: deploy,
    text: "123456789012345678901234567890",
    expected: noOption("123456789012…", 3),
  },
  {
    name: "a negative number, as free text",
    prompt: deploy,
    text: "-1",
    expected: answered({ target: ["-1"] }),
  },
  {
    name: "a decimal number, as free text",
    prompt: deploy,
    text: "1.5",
    expected: answered({ target: ["1.5"] }),
  },
  // Numeric labels: numbers match labels only.
  { name: "a numeric label", prompt: numeric, text: "10", expected: answered({ replicas: ["10"] }) },
  {
    name: "a numeric label that is also a position",
    prompt: numeric,
    text: "3",
    expected: answered({ replicas: ["3"] }),
  },
  {
    name: "a position that is no label, as free text",
    prompt: numeric,
    text: "1",
    expected: answered({ replicas: ["1"] }),
  },
  {
    name: "another unmatched number, as free text",
    prompt: numeric,
    text: "2",
    expected: answered({ replicas: ["2"] }),
  },
  {
    name: "a numeric label with a leading zero",
    prompt: numeric,
    text: "03",
    expected: answered({ replicas: ["3"] }),
  },
  {
    name: "the keycap ten for label 10",
    prompt: numeric,
    text: "🔟",
    expected: answered({ replicas: ["10"] }),
  },
  // Skip.
  { name: "skip", prompt: deploy, text: "skip", expected: SKIP },
  { name: "/skip", prompt: deploy, text: "/skip", expected: SKIP },
  { name: "SKIP in capitals", prompt: deploy, text: " SKIP ", expected: SKIP },
  { name: "the German skip word in an English chat", prompt: deploy, text: "überspringen", expected: SKIP },
  { name: "/Überspringen", prompt: deploy, text: "/Überspringen", locale: "de", expected: SKIP },
  {
    name: "Skip when a label is Skip",
    prompt: skipLabel,
    text: "Skip",
    expected: answered({ step: ["Skip"] }),
  },
  {
    name: "skip in lower case when a label is Skip",
    prompt: skipLabel,
    text: "skip",
    expected: answered({ step: ["Skip"] }),
  },
  { name: "/skip when a label is Skip", prompt: skipLabel, text: "/skip", expected: SKIP },
  {
    name: "skip with more words, as free text",
    prompt: deploy,
    text: "skip it",
    expected: answered({ target: ["skip it"] }),
  },
  // other: forces free text.
  { name: "other: before a number", prompt: deploy, text: "other: 2", expected: answered({ target: ["2"] }) },
  {
    name: "other: before skip",
    prompt: deploy,
    text: "Other: skip",
    expected: answered({ target: ["skip"] }),
  },
  {
    name: "OTHER: with spaces keeps the text as typed",
    prompt: deploy,
    text: "OTHER:   Canary First",
    expected: answered({ target: ["Canary First"] }),
  },
  {
    name: "the German prefix sonstiges:",
    prompt: deploy,
    text: "Sonstiges: Testumgebung",
    expected: answered({ target: ["Testumgebung"] }),
  },
  {
    name: "other: with nothing after it",
    prompt: deploy,
    text: "other:",
    expected: invalid('Write your own answer after "other:".'),
  },
  {
    name: "sonstiges: with nothing after it, in German",
    prompt: deploy,
    text: "sonstiges:   ",
    locale: "de",
    expected: invalid("Schreib deine eigene Antwort nach „sonstiges:“."),
  },
  // Free text.
  {
    name: "free text as typed",
    prompt: deploy,
    text: "  Deploy to Staging first, then Production ",
    expected: answered({ target: ["Deploy to Staging first, then Production"] }),
  },
  {
    name: "free text keeps case and full-width characters",
    prompt: deploy,
    text: "ＭＩＸＥＤ Case",
    expected: answered({ target: ["ＭＩＸＥＤ Case"] }),
  },
  {
    name: "free text over several lines",
    prompt: deploy,
    text: "first line\nsecond line",
    expected: answered({ target: ["first line\nsecond line"] }),
  },
  {
    name: "1:30pm for one question",
    prompt: deploy,
    text: "1:30pm",
    expected: answered({ target: ["1:30pm"] }),
  },
  {
    name: "two numbers for a single-select question",
    prompt: deploy,
    text: "1 3",
    expected: answered({ target: ["1 3"] }),
  },
  // Empty.
  { name: "an empty reply", prompt: deploy, text: "", expected: EMPTY },
  { name: "a blank reply", prompt: deploy, text: "  \n\t ", expected: EMPTY },
  { name: "a pair of empty quotes", prompt: deploy, text: '""', expected: EMPTY },
  {
    name: "an empty reply, in German",
    prompt: deploy,
    text: "",
    locale: "de-AT",
    expected: invalid("Die Antwort ist leer."),
  },
  {
    name: "a reply past the length limit",
    prompt: deploy,
    text: "x".repeat(20_001),
    expected: invalid("The reply is too long: at most 20000 characters."),
  },
  {
    name: "a number past the last option, in German",
    prompt: deploy,
    text: "5",
    locale: "de",
    expected: invalid(
      "Es gibt keine Option 5: wähle eine Nummer von 1 bis 3, eine Bezeichnung oder schreib eine eigene Antwort nach „sonstiges:“.",
    ),
  },
  // Multi-select.
  {
    name: "multi: labels with commas",
    prompt: tools,
    text: "Test, Build",
    expected: answered({ tools: ["Test", "Build"] }),
  },
  {
    name: "multi: semicolons, in option order",
    prompt: tools,
    text: "build; test",
    expected: answered({ tools: ["Test", "Build"] }),
  },
  {
    name: "multi: new lines",
    prompt: tools,
    text: "docs\nbuild",
    expected: answered({ tools: ["Build", "Docs"] }),
  },
  {
    name: "multi: numbers separated by spaces",
    prompt: tools,
    text: "1 3",
    expected: answered({ tools: ["Lint, format", "Build"] }),
  },
  {
    name: "multi: numbers in reverse order",
    prompt: tools,
    text: "3 1",
    expected: answered({ tools: ["Lint, format", "Build"] }),
  },
  {
    name: "multi: keycaps separated by spaces",
    prompt: tools,
    text: "4️⃣ 2️⃣",
    expected: answered({ tools: ["Test", "Docs"] }),
  },
  {
    name: "multi: a label containing a comma",
    prompt: tools,
    text: "lint, format",
    expected: answered({ tools: ["Lint, format"] }),
  },
  {
    name: "multi: a label containing a comma among others",
    prompt: tools,
    text: "Docs, Lint, format",
    expected: answered({ tools: ["Lint, format", "Docs"] }),
  },
  {
    name: "multi: duplicates dropped",
    prompt: tools,
    text: "2, 2, test",
    expected: answered({ tools: ["Test"] }),
  },
  {
    name: "multi: labels and free text, options first",
    prompt: tools,
    text: "my own, 4, Test",
    expected: answered({ tools: ["Test", "Docs", "my own"] }),
  },
  {
    name: "multi: free text duplicates dropped ignoring case",
    prompt: tools,
    text: "my own, other thing, My Own",
    expected: answered({ tools: ["my own", "other thing"] }),
  },
  { name: "multi: one number out of range", prompt: tools, text: "1, 9", expected: noOption("9", 4) },
  {
    name: "multi: other: inside the list",
    prompt: tools,
    text: "2, other: 3",
    expected: answered({ tools: ["Test", "3"] }),
  },
  {
    name: "multi: a leading other: keeps the commas",
    prompt: tools,
    text: "other: a, b",
    expected: answered({ tools: ["a, b"] }),
  },
  { name: "multi: skip alone", prompt: tools, text: "skip", expected: SKIP },
  { name: "multi: skip among answers", prompt: tools, text: "1, skip", expected: SKIP_ALONE },
  { name: "multi: only separators", prompt: tools, text: ",, ;", expected: EMPTY },
  {
    name: "multi: empty parts ignored",
    prompt: tools,
    text: "2,,4,",
    expected: answered({ tools: ["Test", "Docs"] }),
  },
  { name: "multi: a single number", prompt: tools, text: "3", expected: answered({ tools: ["Build"] }) },
  // Several questions.
  {
    name: "several: keyed by number",
    prompt: several,
    text: "1: 2\n2: eu-west, us-east\n3: later",
    expected: answered({ target: ["Production"], regions: ["eu-west", "us-east"], time: ["Later"] }),
  },
  {
    name: "several: keyed by id",
    prompt: several,
    text: "target: production\nregions: us-east\ntime: now",
    expected: answered({ target: ["Production"], regions: ["us-east"], time: ["Now"] }),
  },
  {
    name: "several: keyed by header with = and )",
    prompt: several,
    text: "TARGET = Staging\nRegions) 2\nTime: 1",
    expected: answered({ target: ["Staging (Recommended)"], regions: ["us-east"], time: ["Now"] }),
  },
  {
    name: "several: 1) and 2 = keys",
    prompt: several,
    text: "1) Production\n2 = us-east\n3=later",
    expected: answered({ target: ["Production"], regions: ["us-east"], time: ["Later"] }),
  },
  {
    name: "several: 1:30pm is a value, not a key",
    prompt: several,
    text: "1:30pm",
    expected: answered({ target: ["1:30pm"] }, false),
  },
  {
    name: "several: a keyed 1:30pm",
    prompt: several,
    text: "3: 1:30pm",
    expected: answered({ time: ["1:30pm"] }, false),
  },
  {
    name: "several: plain lines fill the questions in order",
    prompt: several,
    text: "production\neu-west; us-east\nlater",
    expected: answered({ target: ["Production"], regions: ["eu-west", "us-east"], time: ["Later"] }),
  },
  {
    name: "several: keyed and plain lines mixed",
    prompt: several,
    text: "2: us-east\nproduction\nnow",
    expected: answered({ target: ["Production"], regions: ["us-east"], time: ["Now"] }),
  },
  {
    name: "several: blank lines ignored",
    prompt: several,
    text: "\n\n1: 2\n   \n",
    expected: answered({ target: ["Production"] }, false),
  },
  {
    name: "several: a partial reply is incomplete",
    prompt: several,
    text: "production",
    expected: answered({ target: ["Production"] }, false),
  },
  {
    name: "several: the draft is continued",
    prompt: several,
    text: "us-east\nnow",
    draft: { target: ["Production"] },
    expected: answered({ target: ["Production"], regions: ["us-east"], time: ["Now"] }),
  },
  {
    name: "several: the last step of the text stepper",
    prompt: several,
    text: "2",
    draft: { target: ["Production"], regions: ["eu-west"] },
    expected: answered({ target: ["Production"], regions: ["eu-west"], time: ["Later"] }),
  },
  {
    name: "several: a keyed line replaces the draft",
    prompt: several,
    text: "1: staging",
    draft: { target: ["Production"] },
    expected: answered({ target: ["Staging (Recommended)"] }, false),
  },
  {
    name: "several: a keyed line and a plain line after a draft",
    prompt: several,
    text: "Time: later\neu-west",
    draft: { target: ["Production"] },
    expected: answered({ target: ["Production"], regions: ["eu-west"], time: ["Later"] }),
  },
  {
    name: "several: draft keys of other questions are ignored",
    prompt: several,
    text: "2",
    draft: { nope: ["x"], target: ["Production"] },
    expected: answered({ target: ["Production"], regions: ["us-east"] }, false),
  },
  {
    name: "several: more plain lines than questions",
    prompt: several,
    text: "a\nb\nc\nd",
    expected: invalid(
      `4 lines without a question number, but only 3 questions are open. Write one answer per line, or start a line with the question's number, e.g. "2: …".`,
    ),
  },
  {
    name: "several: more plain lines than open questions after a draft",
    prompt: several,
    text: "now\nlater",
    draft: { target: ["Production"], regions: ["eu-west"] },
    expected: invalid(
      `2 lines without a question number, but only 1 question is open. Write one answer per line, or start a line with the question's number, e.g. "2: …".`,
    ),
  },
  {
    name: "several: too many lines, in German",
    prompt: several,
    text: "a\nb\nc\nd",
    locale: "de",
    expected: invalid(
      "4 Zeilen ohne Fragennummer, aber nur 3 Fragen sind offen. Schreib eine Antwort pro Zeile oder beginne eine Zeile mit der Nummer der Frage, z. B. „2: …“.",
    ),
  },
  { name: "several: skip as the whole reply", prompt: several, text: "/skip", expected: SKIP },
  {
    name: "several: überspringen as the whole reply",
    prompt: several,
    text: "Überspringen",
    locale: "de",
    expected: SKIP,
  },
  { name: "several: a keyed skip", prompt: several, text: "2: skip", expected: SKIP_ALONE },
  { name: "several: skip among other lines", prompt: several, text: "1\nskip", expected: SKIP_ALONE },
  {
    name: "several: an out-of-range number names the question",
    prompt: several,
    text: "1: 5",
    expected: invalid(
      `Target: There is no option 5: choose a number from 1 to 2, a label, or write your own answer after "other:".`,
    ),
  },
  {
    name: "several: an out-of-range number, in German",
    prompt: several,
    text: "3: 0",
    locale: "de",
    expected: invalid(
      "Time: Es gibt keine Option 0: wähle eine Nummer von 1 bis 2, eine Bezeichnung oder schreib eine eigene Antwort nach „sonstiges:“.",
    ),
  },
  {
    name: "several: two lines for a single-select question",
    prompt: several,
    text: "1: Staging\ntarget: Production",
    expected: invalid("Give one answer for Target."),
  },
  {
    name: "several: two lines for a multi-select question are merged",
    prompt: several,
    text: "2: us-east\nregions: eu-west",
    expected: answered({ regions: ["eu-west", "us-east"] }, false),
  },
  {
    name: "several: an unknown key is a plain value",
    prompt: several,
    text: "Note: ship it",
    expected: answered({ target: ["Note: ship it"] }, false),
  },
  {
    name: "several: a number past the questions is a plain value",
    prompt: several,
    text: "4: later",
    expected: answered({ target: ["4: later"] }, false),
  },
  { name: "several: a key without a value", prompt: several, text: "1:", expected: EMPTY },
  {
    name: "several: other: on a keyed line",
    prompt: several,
    text: "1: other: 2",
    expected: answered({ target: ["2"] }, false),
  },
  { name: "several: an empty reply", prompt: several, text: " \n ", expected: EMPTY },
  {
    name: "one question: the answer replaces its draft and other draft keys are dropped",
    prompt: deploy,
    text: "2",
    draft: { target: ["Local"], other: ["x"] },
    expected: answered({ target: ["Production"] }),
  },
];

const severalMulti = prompt(
  question("target", "Target", ["Staging (Recommended)", "Production"]),
  question("regions", "Regions", ["EU", "US", "Asia"], true),
);

describe("the one-line keyed form (Enter sends the message)", () => {
  it.each([
    ["1: 2; 2: EU, Asia", { target: ["Production"], regions: ["EU", "Asia"] }],
    ["1: 2;2: 1", { target: ["Production"], regions: ["EU"] }],
    ["1: 2 ; 2: EU; Asia", { target: ["Production"], regions: ["EU", "Asia"] }],
    ["target = 1; regions = 3", { target: ["Staging (Recommended)"], regions: ["Asia"] }],
    ["1: 2 / 2: 3", { target: ["Production"], regions: ["Asia"] }],
    ["Target: Production；Regions: US", { target: ["Production"], regions: ["US"] }],
  ])("reads %j", (text, answers) => {
    expect(interpretReply(severalMulti, text)).toEqual(answered(answers));
  });

  it("keeps a semicolon that does not start a keyed answer inside the value", () => {
    expect(interpretReply(severalMulti, "2: EU; Asia")).toEqual(answered({ regions: ["EU", "Asia"] }, false));
    expect(interpretReply(several, "3: Later; maybe")).toEqual(answered({ time: ["Later; maybe"] }, false));
  });

  it("does not take 1:30pm after a semicolon for a key", () => {
    expect(interpretReply(several, "3: Later;1:30pm")).toEqual(answered({ time: ["Later;1:30pm"] }, false));
  });
});

describe("interpretReply", () => {
  it("has a case for every rule", () => {
    expect(cases.length).toBeGreaterThanOrEqual(70);
  });

  it.each(cases)("reads $name", ({ prompt, text, draft, locale, expected }) => {
    expect(interpretReply(prompt, text, draft, locale === undefined ? undefined : { locale })).toEqual(
      expected,
    );
  });
});
