import type { StatusKind } from "./i18n.ts";

/**
 * The status icons as inline SVG (24×24, stroked in the text colour): they need no emoji font, and
 * they are decoration only — the status is always said in words beside them.
 */
const PATHS: Record<StatusKind, string> = {
  // a clock
  pending: "M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18M12 7v5l3 2",
  // a tick in a circle
  answered: "M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18M8 12.5l2.5 2.5L16 9.5",
  // skip forward
  skipped: "M5 6l7 6l-7 6zM12 6l7 6l-7 6zM20 5v14",
  // an hourglass
  expired: "M7 3h10M7 21h10M8 3c0 5 8 5 8 9s-8 4-8 9M16 3c0 5-8 5-8 9s8 4 8 9",
  // a cross in a circle
  cancelled: "M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18M9 9l6 6M15 9l-6 6",
  // a warning triangle
  undeliverable: "M12 3l10 18H2zM12 10v5M12 17.5v.5",
};

export function StatusIcon({ kind }: { kind: StatusKind }) {
  return (
    <svg
      class={`status-icon status-icon--${kind}`}
      viewBox="0 0 24 24"
      width="16"
      height="16"
      aria-hidden="true"
      focusable="false"
    >
      <path
        d={PATHS[kind]}
        fill="none"
        stroke="currentColor"
        stroke-width="2"
        stroke-linecap="round"
        stroke-linejoin="round"
      />
    </svg>
  );
}
