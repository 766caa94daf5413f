import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InvalidAskUserInputError } from "../src/model/errors.ts";
import { fastNormalizeInput } from "../src/schema/fast-input.ts";
import { toInputIssues } from "../src/schema/input-issues.ts";
import { normalizeAskUserInput } from "../src/schema/normalize.ts";
import { askUserInputSchema, LIMITS, type Prompt } from "../src/schema/schema.ts";

/** A field left out of its object (not even `undefined`). */
const ABSENT = Symbol("absent");
type Field = unknown | typeof ABSENT;

const anyValue = fc.anything({ withNullPrototype: true, withBigInt: true, withMap: true, withSet: true });
const wrongType = fc.oneof(
  anyValue,
  fc.constantFrom<Field>(ABSENT, undefined, null, 0, 1, true, [], {}, Number.NaN, Number.POSITIVE_INFINITY),
);
const space = fc.constantFrom("", "", "", " ", "  ", "\t", "\n", "\u00a0", "\u3000", "\ufeff", "\u2003");
const padded = (text: fc.Arbitrary<string>) =>
  fc.tuple(space, text, space).map(([a, t, b]) => `${a}${t}${b}`);
const blank = fc.tuple(space, space).map(([a, b]) => `${a}${b}`);

/** Clusters of 1 to 8 UTF-16 units: plain, precomposed, combining marks, emoji, skin tones, ZWJ, flags. */
const cluster = fc.constantFrom(
  "a",
  "Z",
  " ",
  "é",
  "e\u0301",
  "a\u0301\u0302",
  "👍",
  "👍🏽",
  "👨‍👩‍👧",
  "🇩🇪",
  "字",
  "ｗ",
);
/** Up to `limit` clusters (a few below it, or exactly it), or up to 2 over it when `over`. */
function nearLimit(limit: number, over = false): fc.Arbitrary<string> {
  const count = fc.integer({ min: Math.max(1, limit - 3), max: over ? limit + 2 : limit });
  return fc.tuple(count, cluster, cluster, fc.nat(limit)).map(([n, fill, other, at]) => {
    const units: string[] = Array.from({ length: n }, (_, i) => (i === at ? other : fill));
    if (units[0] === " ") units[0] = "x"; // a leading space would be trimmed away
    return units.join("");
  });
}
const words = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ,.'?-]{0,24}$/);
const someText = fc.oneof(words, words, fc.string({ unit: "grapheme", minLength: 1, maxLength: 12 }));

/** Labels that read the same to `compareKey` (case, spaces, width, quotes, `(Recommended)`), and others. */
const sameLabels = fc.constantFrom(
  "Staging",
  "staging",
  " Staging ",
  "STAGING",
  "Ｓｔａｇｉｎｇ",
  "'Staging'",
  "Staging  env",
);
const otherLabels = fc.constantFrom(
  "Staging env",
  "Staging (Recommended)",
  "Production",
  "Prod",
  "Skip this step",
  "Others",
);
/** Reserved labels in many spellings. */
const reserved = fc.constantFrom(
  ...["Other", " other ", "OTHER", "Other…", "Other...", '"Other"', "Ｏｔｈｅｒ", "Other (Recommended)"],
  ...["Skip", "skip", "/skip", "SKIP", "Überspringen", "Sonstiges", "sonstige", "andere…"],
);
const badIds = ["Q1", "1q", "q-1", "deploy target", "é", "a".repeat(65), ` ${"b".repeat(65)} `];

/** A field left out as often as it is given as `undefined`. */
const leftOut = fc.constantFrom<Field>(ABSENT, undefined);
/** A plain object with the fields not ABSENT (in the given order), maybe with an extra own key. */
function objectOf(fields: Record<string, fc.Arbitrary<Field>>, wrong: number): fc.Arbitrary<unknown> {
  // Defined as an own property, so that `__proto__` is a key, too.
  const extra = fc.tuple(fc.constantFrom("extra", "Label", "__proto__", "toString", "id "), anyValue);
  const extraKey =
    wrong === 0
      ? fc.constant(undefined)
      : fc.oneof({ weight: 40, arbitrary: fc.constant(undefined) }, { weight: wrong, arbitrary: extra });
  // Now and then without a prototype (as `Object.create(null)` or some parsers make them).
  return fc.tuple(fc.record(fields), extraKey, fc.nat(9)).map(([values, added, bare]) => {
    const out: Record<string, unknown> = bare === 0 ? Object.create(null) : {};
    for (const [key, value] of Object.entries(values)) if (value !== ABSENT) out[key] = value;
    if (added) Object.defineProperty(out, added[0], { value: added[1], enumerable: true, writable: true });
    return out;
  });
}

/**
 * Inputs of the schema's shape, each field right (weight 40) or, with weight `wrong` each, wrong in one
 * of the ways listed for it: a wrong type, blank, too long, reserved, a count out of range, …
 */
function inputs(wrong: number): fc.Arbitrary<unknown> {
  const pick = (...choices: Array<[number, fc.Arbitrary<Field>]>) =>
    fc.oneof(
      ...choices.filter(([weight]) => weight > 0).map(([weight, arbitrary]) => ({ weight, arbitrary })),
    );
  const id = pick(
    [20, fc.constantFrom("deploy_target", "a", "b_2", "q1", "q2", "db_engine", "a".repeat(64))],
    [20, padded(fc.constantFrom("q1", "q2", "region"))],
    [wrong, fc.oneof(fc.constantFrom(...badIds), blank, wrongType)],
  );
  const header = pick(
    [20, padded(someText)],
    [15, nearLimit(12, true)],
    [5, fc.constantFrom("Deploy", "abcdefghijk  lmn", "Deploy target", "🚀 Deploy now please")],
    [wrong, fc.oneof(blank, wrongType)],
  );
  const question = pick(
    [38, padded(someText)],
    [2, nearLimit(1000)],
    [wrong, fc.oneof(nearLimit(1000, true), blank, wrongType)],
  );
  const label = pick(
    [27, padded(someText)],
    [2, sameLabels],
    [8, otherLabels],
    [3, nearLimit(64)],
    [wrong, fc.oneof(reserved, nearLimit(64, true), blank, wrongType)],
  );
  const description = pick(
    [15, leftOut],
    [18, padded(someText)],
    [5, blank],
    [2, nearLimit(500)],
    [wrong, fc.oneof(nearLimit(500, true), wrongType)],
  );
  const multiSelect = pick([40, fc.constantFrom<Field>(ABSENT, true, false, undefined)], [wrong, wrongType]);
  const timeoutSeconds = pick(
    [15, leftOut],
    [20, fc.integer({ min: -10_000, max: 10_000 })],
    [5, fc.constantFrom(0, -0, 29, 30, 3600, 3601, 1e21, -1e21, Number.MAX_SAFE_INTEGER + 2)],
    [wrong, fc.oneof(fc.double(), fc.constantFrom(30.5, "900", "60", null, Number.NaN), wrongType)],
  );
  const listOf = (item: fc.Arbitrary<Field>, min: number, max: number) =>
    pick(
      [40, fc.array(item, { minLength: min, maxLength: max })],
      [wrong, fc.array(item, { minLength: 0, maxLength: max + 1 })],
      [wrong, fc.oneof(fc.constantFrom<Field>(new Array(min), "[]"), wrongType)],
    );
  const option = pick([40, objectOf({ label, description }, wrong)], [wrong, wrongType]);
  const questionFields = { id, header, question, options: listOf(option, 2, 4), multiSelect };
  const oneQuestion = pick([40, objectOf(questionFields, wrong)], [wrong, wrongType]);
  return pick(
    [40, objectOf({ questions: listOf(oneQuestion, 1, 3), timeoutSeconds }, wrong)],
    [wrong, anyValue],
  );
}

/** Right inputs (with duplicates and limits), a few wrong fields, many wrong fields. */
const input = fc.oneof(inputs(0), inputs(1), inputs(4));

/** Every length of `prompt` within its limit counted in UTF-16 units (so in grapheme clusters, too). */
function withinUnits(prompt: Prompt): boolean {
  return prompt.questions.every(
    (question) =>
      question.question.length <= LIMITS.questionMaxLength &&
      question.options.every(
        (option) =>
          option.label.length <= LIMITS.labelMaxLength &&
          (option.description ?? "").length <= LIMITS.descriptionMaxLength,
      ),
  );
}

/** The inputs a model sends nearly always: each must take the fast path. */
const common: unknown[] = [
  {
    questions: [
      {
        id: "deploy_target",
        header: "Deploy",
        question: "Where should I deploy?",
        options: [{ label: "Staging (Recommended)", description: "Safe" }, { label: "Production" }],
      },
    ],
  },
  {
    questions: [
      {
        id: "db_engine",
        header: "🗄️ Databases engine",
        question: "  Which database should the service use?  ",
        options: [
          { label: "PostgreSQL (Recommended)", description: "Managed, with backups" },
          { label: "SQLite", description: "   " },
          { label: "Café — keep it simple" },
        ],
        multiSelect: false,
      },
      {
        id: "regions",
        header: "Regions",
        question: "Which regions?",
        options: [{ label: "EU" }, { label: "US" }, { label: "Asia 🌏" }, { label: "Skip this step" }],
        multiSelect: true,
      },
    ],
    timeoutSeconds: 120,
  },
  {
    questions: [{ id: "q", header: "H", question: "Q?", options: [{ label: "A" }, { label: "B" }] }],
    timeoutSeconds: 5,
  },
];

describe("fastNormalizeInput (the fast path of normalizeAskUserInput)", () => {
  it("builds the very prompt the schema builds (key order included), or declines; never accepts what it refuses", () => {
    let fast = 0;
    let parsed = 0;
    fc.assert(
      fc.property(input, (raw) => {
        const quick = fastNormalizeInput(raw);
        const schema = askUserInputSchema.safeParse(raw);
        if (schema.success) parsed++;
        // Short enough in UTF-16 units, no grapheme needs counting: the fast path must take it.
        if (schema.success && withinUnits(schema.data)) expect(quick).toBeDefined();
        if (quick !== undefined) {
          fast++;
          expect(schema.success).toBe(true);
          expect(JSON.stringify(quick)).toBe(JSON.stringify(schema.data));
          expect(quick).toStrictEqual(schema.data);
        }
        if (!schema.success) {
          // The public entry still refuses it with the schema's own issues.
          expect(() => normalizeAskUserInput(raw)).toThrow(InvalidAskUserInputError);
          try {
            normalizeAskUserInput(raw);
          } catch (error) {
            expect((error as InvalidAskUserInputError).issues).toEqual(toInputIssues(schema.error.issues));
          }
        }
      }),
      { numRuns: 2000 },
    );
    // Both branches must be reached often, and the fast path must take most of what the schema accepts.
    expect(parsed).toBeGreaterThan(500);
    expect(fast).toBeGreaterThan(parsed * 0.6);
  });

  it("takes the common inputs (the bench's sample, emoji, accents, several questions) without the schema", () => {
    for (const raw of common) {
      const quick = fastNormalizeInput(raw);
      expect(quick).toBeDefined();
      expect(JSON.stringify(quick)).toBe(JSON.stringify(askUserInputSchema.parse(raw)));
    }
    expect(fastNormalizeInput(common[2])?.timeoutSeconds).toBe(30);
    expect(fastNormalizeInput(common[1])?.questions[0]?.header).toBe("🗄️ Databases");
  });

  it("declines what it is not sure of, so that the schema words the issue as before", () => {
    const base = common[0] as { questions: Array<Record<string, unknown>> };
    const withQuestion = (changes: Record<string, unknown>) => ({
      questions: [{ ...base.questions[0], ...changes }],
    });
    const declined = [
      withQuestion({ options: [{ label: "Other" }, { label: "Production" }] }),
      withQuestion({ options: [{ label: "Staging" }, { label: " STAGING (Recommended)" }] }),
      withQuestion({ question: "é".repeat(1001) }),
      withQuestion({ multiSelect: null }),
      withQuestion({ id: "Deploy" }),
      { ...base, timeoutSeconds: null },
      { ...base, timeoutSeconds: 30.5 },
      { ...base, extra: 1 },
    ];
    for (const raw of declined) expect(fastNormalizeInput(raw)).toBeUndefined();
    // Valid by the schema but long in UTF-16 units: the fast path does not count graphemes, it declines.
    const accents = withQuestion({ options: [{ label: "e\u0301".repeat(64) }, { label: "B" }] });
    expect(fastNormalizeInput(accents)).toBeUndefined();
    expect(normalizeAskUserInput(accents).questions[0]?.options[0]?.label).toBe("e\u0301".repeat(64));
  });
});
