/**
 * Option labels the system adds itself, in every catalogue's words: an authored "Other" or "Skip" would
 * sit beside the real one. Compared with `compareKey` (case, spacing, quotes, `(Recommended)` ignored).
 */
import { z } from "zod";
import { type Locale, messagesFor } from "../prompt/i18n.ts";
import { compareKey } from "../prompt/text.ts";

/** Every catalogue (a record, so that a new locale fails to compile until it is listed here). */
const LOCALES: Record<Locale, true> = { en: true, de: true };

/** Words for "other" that no catalogue uses but a model writes all the same. */
const OTHER_SYNONYMS = ["sonstige", "andere"];

/** Each word as written, and followed by an ellipsis (`Other…`, `Other...`), as comparison keys. */
function forms(words: readonly string[]): Set<string> {
  const stems = words.map((word) => compareKey(word).replace(/(…|\.\.\.)$/u, ""));
  return new Set(stems.flatMap((stem) => [stem, `${stem}…`, `${stem}...`]));
}

const catalogues = (Object.keys(LOCALES) as Locale[]).map((locale) => messagesFor(locale));
const OTHER_LABELS = forms([...catalogues.map((m) => m.other), ...OTHER_SYNONYMS]);
const SKIP_LABELS = forms(catalogues.flatMap((m) => [m.skip, ...m.skipWords]));

/** `"other"` / `"skip"` when a label's comparison key (`compareKey`) is a reserved one, else undefined. */
export function reservedKind(key: string): "other" | "skip" | undefined {
  return OTHER_LABELS.has(key) ? "other" : SKIP_LABELS.has(key) ? "skip" : undefined;
}

/** Refuses an authored "Other" (`Other…`, `Sonstiges`, …) and a "Skip" (`/skip`, `Überspringen`, …). */
export const notReservedLabel = z.superRefine((label: string, ctx) => {
  const kind = reservedKind(compareKey(label));
  if (kind === "other") {
    ctx.addIssue({
      code: "custom",
      input: label,
      message: `Remove the "${label}" option: a free-text "Other" answer is always added by the system.`,
    });
  } else if (kind === "skip") {
    ctx.addIssue({
      code: "custom",
      input: label,
      message: `Rename the "${label}" option (e.g. "Skip this step"): a "Skip" that declines the whole prompt is always added by the system, and two "Skip" buttons would read the same.`,
    });
  }
});
