import type { PromptQuestion } from "../schema/schema.ts";

/** Letters and digits only, lower case: "Prod-uction." and "production" read the same. */
function skeleton(text: string): string {
  return text
    .normalize("NFKC")
    .toLocaleLowerCase("en-US")
    .replace(/\(recommended\)\s*$/u, "")
    .replace(/[^\p{L}\p{N}]/gu, "");
}

/** Edit distance with adjacent swaps (optimal string alignment), stopping early past `max`. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) rows.push([i, ...Array<number>(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) (rows[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i] as number[];
    const prev = rows[i - 1] as number[];
    let best = Number.POSITIVE_INFINITY;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(
        (prev[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (prev[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      }
      row[j] = value;
      best = Math.min(best, value);
    }
    if (best > max) return max + 1;
  }
  return (rows[a.length] as number[])[b.length] as number;
}

/**
 * The label `value` was probably meant to be (case, spacing, punctuation or a small typo apart), or
 * `undefined` when it reads as an answer of its own. Short labels (up to 3 letters) only match exactly.
 */
export function nearLabel(question: PromptQuestion, value: string): string | undefined {
  const typed = skeleton(value);
  if (typed === "") return undefined;
  let best: { label: string; distance: number } | undefined;
  for (const option of question.options) {
    const label = skeleton(option.label);
    const allowed = label.length <= 3 ? 0 : Math.min(2, Math.floor(label.length / 4));
    const d = distance(typed, label, allowed);
    if (d <= allowed && (!best || d < best.distance)) best = { label: option.label, distance: d };
  }
  return best?.label;
}
