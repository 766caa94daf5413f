import { useLayoutEffect, useRef } from "preact/hooks";
import type { PanelStrings } from "./i18n.ts";

interface SkipConfirmProps {
  strings: PanelStrings;
  /** Questions in the prompt (all of them are skipped). */
  total: number;
  /** Headers of the questions that already have an answer here (lost by skipping). */
  staged: readonly string[];
  busy: boolean;
  onKeep(): void;
  onSkip(): void;
}

/**
 * Skip while answers are staged: says what is skipped and what is lost, and asks. The focus starts on
 * Keep answering (the safe way out; Esc does the same).
 */
export function SkipConfirm({ strings, total, staged, busy, onKeep, onSkip }: SkipConfirmProps) {
  const { web } = strings;
  const keep = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => keep.current?.focus(), []);
  return (
    <div class="skip-confirm" role="alertdialog" aria-labelledby="skip-title" aria-describedby="skip-lost">
      <p class="skip-title" id="skip-title">
        {web.skipTitle(total)}
      </p>
      <p class="skip-lost" id="skip-lost">
        {web.skipLost(staged.join(", "), staged.length)}
      </p>
      <div class="panel-actions">
        <button type="button" class="button" ref={keep} disabled={busy} onClick={onKeep}>
          {web.keepAnswering}
        </button>
        <span class="spacer" />
        <button type="button" class="button button--danger" disabled={busy} onClick={onSkip}>
          {web.skipAll(total)}
        </button>
      </div>
    </div>
  );
}
