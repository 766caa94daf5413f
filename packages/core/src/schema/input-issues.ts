import type { z } from "zod";
import type { InputIssue } from "../model/errors.ts";

/** Options of {@link toInputIssues}. */
export interface InputIssueOptions {
  /** Put before every path: `answers` gives `answers.deploy_target[0]`, and `answers` for the root. */
  prefix?: string;
  /** The first sentence for an unknown key (default `Unknown field "colour".`). */
  unknownKey?: (key: string) => string;
}

interface Located {
  path: readonly PropertyKey[];
  message: string;
  /** An unknown key: listed before the other problems of its object (it often explains them). */
  unknown: boolean;
}

function formatPath(prefix: string | undefined, path: readonly PropertyKey[]): string {
  let out = prefix ?? "";
  for (const segment of path) {
    out +=
      typeof segment === "number" ? `[${segment}]` : out === "" ? String(segment) : `.${String(segment)}`;
  }
  return out;
}

/**
 * Document order: a container's own problem before its items', items by index, unknown keys first,
 * other fields in the order the schema checks them (the order of the first problem under each).
 */
function ordered(items: Located[]): Located[] {
  const firstUnder = new Map<string, number>();
  items.forEach((item, index) => {
    for (let end = 1; end <= item.path.length; end++) {
      const key = JSON.stringify(item.path.slice(0, end).map(String));
      if (!firstUnder.has(key)) firstUnder.set(key, index);
    }
  });
  const rankOf = (item: Located): number[] =>
    item.path.map((segment, at) => {
      if (typeof segment === "number") return segment;
      if (item.unknown && at === item.path.length - 1) return -1;
      return firstUnder.get(JSON.stringify(item.path.slice(0, at + 1).map(String))) ?? 0;
    });
  const ranked = items.map((item) => ({ item, rank: rankOf(item) }));
  ranked.sort((a, b) => {
    for (let at = 0; at < Math.min(a.rank.length, b.rank.length); at++) {
      const diff = (a.rank[at] as number) - (b.rank[at] as number);
      if (diff !== 0) return diff;
    }
    return a.rank.length - b.rank.length;
  });
  return ranked.map(({ item }) => item);
}

/**
 * zod's issues as `InputIssue`s: a path like `questions[1].options[0].label`, one issue per unknown key,
 * duplicates dropped, in document order. The messages are the schema's own.
 *
 * @example
 * const parsed = askUserInputSchema.safeParse(raw);
 * if (!parsed.success) throw new InvalidAskUserInputError(toInputIssues(parsed.error.issues));
 */
export function toInputIssues(
  issues: readonly z.core.$ZodIssue[],
  options: InputIssueOptions = {},
): InputIssue[] {
  const unknownKey = options.unknownKey ?? ((key: string) => `Unknown field "${key}".`);
  const located = issues.flatMap<Located>((issue) =>
    issue.code === "unrecognized_keys"
      ? issue.keys.map((key) => ({
          path: [...issue.path, key],
          message: `${unknownKey(key)} ${issue.message}`,
          unknown: true,
        }))
      : [{ path: issue.path, message: issue.message, unknown: false }],
  );
  const seen = new Set<string>();
  const out: InputIssue[] = [];
  for (const item of ordered(located)) {
    const issue = { path: formatPath(options.prefix, item.path), message: item.message };
    const key = `${issue.path}\n${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(issue);
  }
  return out;
}
