import type { PanelStrings } from "./i18n.ts";

interface WaitingBarProps {
  strings: PanelStrings;
  count: number;
  header: string;
  left: string;
  onOpen(): void;
}

/** What a collapsed panel leaves: a slim "1 question waiting" bar that reopens it. */
export function WaitingBar({ strings, count, header, left, onOpen }: WaitingBarProps) {
  const { web } = strings;
  return (
    <button type="button" class="waiting-bar" aria-expanded="false" onClick={onOpen}>
      <span class="waiting-pulse" aria-hidden="true" />
      <span class="waiting-text">{web.waiting(count)}</span>
      <span class="chip">{header}</span>
      <span class="waiting-left">{web.timeLeft(left)}</span>
      <span class="waiting-open">
        {web.reopen} <span aria-hidden="true">▴</span>
      </span>
    </button>
  );
}
